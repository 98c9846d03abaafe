import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCreateHotel } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS } from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(LANGUAGES)("a hotel's booking-system code (%s)", (language) => {
  const t = TEXTS[language];

  it('is set by a brand admin in the hotel edit form, checked, saved and shown', async () => {
    const stamp = Date.now().toString(36).toUpperCase();
    const hotel = await apiCreateHotel(`コードテスト ${language} ${stamp}`);
    const code = `E2E-${language.toUpperCase()}-${stamp}`;
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'brand.admin@demo.test');
    await page.getByTestId('sidebar').waitFor();
    await page.goto(`/management/hotel-list/${hotel.id}`);
    await page.getByRole('heading', { name: hotel.name, level: 1 }).waitFor();
    expect(await page.getByTestId('host-info-booking_hotel_code').locator('td').textContent()).toBe('-');

    await page.getByRole('button', { name: t.management.edit }).click();
    const form = page.getByTestId('host-form');
    const field = form.getByLabel(t.hosts.fields.booking_hotel_code);
    await form.getByText(t.hosts.booking_hotel_code_hint).waitFor();
    const save = form.getByRole('button', { name: t.common.save });

    // Spaces inside a code are refused before the server is asked.
    await field.fill('SKR SHINJUKU');
    await save.click();
    await form.getByText(t.errors.booking_hotel_code_invalid).waitFor();

    // Another hotel of the brand has this one: the server says so, in the user's language.
    await field.fill('SKR-SHINJUKU');
    await save.click();
    await form.getByText(t.errors.booking_hotel_code_taken).waitFor();
    await screenshot(page, `hotel-booking-code-taken-${language}`);

    // Typed in full width with a Japanese input method: saved as the ASCII code.
    const fullWidth = code.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    await field.fill(`  ${fullWidth} `);
    await save.click();
    await page.getByTestId('snackbar').filter({ hasText: t.management.form.saved }).waitFor();
    const shown = page.getByTestId('host-info-booking_hotel_code').locator('td');
    await shown.filter({ hasText: code }).waitFor();
    expect(await shown.textContent()).toBe(code);
    await screenshot(page, `hotel-booking-code-saved-${language}`);

    // The hotel list shows it too, and it is still there after a reload.
    await page.goto('/management/hotel-list');
    await page.getByRole('searchbox').fill(hotel.name);
    const row = page.locator(`[data-testid="host-row"][data-name="${hotel.name}"]`);
    await row.getByTestId('host-booking-code').filter({ hasText: code }).waitFor();
    await page.goto(`/management/hotel-list/${hotel.id}`);
    await page.getByTestId('host-info-booking_hotel_code').locator('td').filter({ hasText: code }).waitFor();
    await context.close();
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS } from '../support/browser';
import { createHostInConsole } from '../support/hosts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function uploadLogo(page: Page, name: string, buffer: Buffer, mimeType: string) {
  await page.getByTestId('host-form').getByTestId('logo-file').setInputFiles({ name, mimeType, buffer });
}

describe.each(LANGUAGES)('management (%s)', (language) => {
  const t = TEXTS[language];

  it('builds a brand with a logo, a hotel group and a hotel, puts the hotel in the group, and deletes the hotel', async () => {
    const stamp = `${language}-${Date.now().toString(36)}`;
    const brand = `テストブランド ${stamp}`;
    const group = `テストグループ ${stamp}`;
    const hotel = `テストホテル ${stamp}`;
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'grand@demo.test');
    await page.waitForURL('**/management/brand-list*');
    await page.getByTestId('host-table').waitFor();

    // The logo is required, and checked by content: a text file named .png is refused.
    await page.getByRole('button', { name: t.management.form.create.brand }).click();
    const form = page.getByTestId('host-form');
    await form.getByRole('button', { name: t.management.form.create_submit }).click();
    await form.getByText(t.errors.logo_required).waitFor();
    await uploadLogo(page, 'fake.png', Buffer.from('not an image at all'), 'image/png');
    await form.getByText(t.errors.logo_wrong_type).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: t.common.cancel }).click();

    await createHostInConsole(page, language, 'brand', brand);
    const logo = await page.getByTestId('host-logo').locator('img').getAttribute('src');
    expect(logo).toMatch(/^\/files\/logos\/[0-9a-f]+\.png$/);
    expect((await page.request.get(logo!)).headers()['content-type']).toContain('image/png');
    await screenshot(page, `brand-detail-${language}`);

    await page.goto('/management/hotel-group-list');
    await createHostInConsole(page, language, 'hotel_group', group, brand);
    await page.goto('/management/hotel-list');
    await createHostInConsole(page, language, 'hotel', hotel, brand);

    const assignment = page.getByTestId('hotel-group-assignment');
    await assignment.locator('select[name="hotelGroupId"]').selectOption({ label: group });
    await assignment.getByRole('button', { name: t.management.group.add }).click();
    await page.getByTestId('snackbar').filter({ hasText: t.management.group.added }).waitFor();
    await page.getByTestId('host-info').getByRole('cell', { name: group, exact: true }).waitFor();

    // The brand's detail lists the hotel in its group.
    await page.goto('/management/brand-list');
    await page.getByRole('searchbox').fill(brand);
    await page.locator(`[data-testid="host-row"][data-name="${brand}"]`).getByRole('link').click();
    const row = page.locator(`[data-testid="host-hotel"][data-name="${hotel}"]`);
    expect(await row.textContent()).toContain(group);
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: hotel, level: 1 }).waitFor();

    // Delete only with the hotel's exact name typed.
    await page.getByRole('button', { name: t.management.delete.action }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: t.management.delete.action });
    await dialog.getByRole('textbox').fill(hotel.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox').fill(hotel);
    await screenshot(page, `hotel-delete-${language}`);
    await confirm.click();
    await page.waitForURL('**/management/hotel-list');
    await page.getByRole('searchbox').fill(hotel);
    await page.getByTestId('empty-state').waitFor();
    await context.close();
  });
});

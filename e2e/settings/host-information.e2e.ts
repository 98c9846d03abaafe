import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCreateHotel, createUserWithPassword, uniqueEmail } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS, toastText } from '../support/browser';

// Another real 1×1 PNG (a different pixel from the one the hotel starts with).
const OTHER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(LANGUAGES)('host information in settings (%s)', (language) => {
  const t = TEXTS[language];

  it('lets a hotel admin change the name, address and logo, seen on the dashboard, in the profile and in management', async () => {
    const stamp = `${language}-${Date.now().toString(36)}`;
    const hotel = await apiCreateHotel(`設定テストホテル ${stamp}`);
    const renamed = `設定テストホテル 新館 ${stamp}`;
    const address = `大阪府大阪市北区梅田3-1-${stamp.length}`;
    const email = uniqueEmail(`hostinfo-${language}`);
    await createUserWithPassword('grand@demo.test', { email, fullName: '松本 陽子', role: 'admin' }, 'hotel-pass-1', {
      role: 'admin',
      slug: hotel.slug,
      level: 'hotel',
    });

    const { context, page } = await openPage(browser, language);
    await signIn(page, language, email, 'hotel-pass-1');
    await page.getByTestId('level-info').getByText(hotel.name).waitFor();
    await page.goto('/settings');
    const form = page.getByTestId('host-info-form');
    await form.locator('input[name="name"]').waitFor();
    expect(await form.locator('input[name="name"]').inputValue()).toBe(hotel.name);
    const oldLogo = await form.getByTestId('logo-preview').locator('img').getAttribute('src');

    // The rules of the management form hold here too: name and address are required.
    await form.locator('input[name="name"]').fill('');
    await form.getByRole('button', { name: t.common.save }).click();
    await form.getByText(t.errors.field_required_fill).waitFor();

    await form.locator('input[name="name"]').fill(renamed);
    await form.locator('input[name="address"]').fill(address);
    await form.getByTestId('logo-file').setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: OTHER_PNG });
    await form.getByTestId('logo-preview').locator(`img:not([src="${oldLogo}"])`).waitFor();
    const newLogo = await form.getByTestId('logo-preview').locator('img').getAttribute('src');
    expect(newLogo).toMatch(/^\/files\/logos\/[0-9a-f]{64}\.png$/);
    await form.getByRole('button', { name: t.common.save }).click();
    expect(await toastText(page)).toContain(t.settings.host.saved);
    await screenshot(page, `settings-host-${language}`);

    // The dashboard and the profile show the new information without signing in again.
    await page.getByRole('link', { name: t.nav.dashboard }).click();
    await page.getByTestId('level-info').getByText(renamed).waitFor();
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: t.shell.menu.my_profile }).click();
    const profile = page.getByRole('dialog');
    await profile.getByText(address).waitFor();
    await profile.getByText(renamed).waitFor();
    await context.close();

    // The granduser sees the same in management.
    const grand = await openPage(browser, language);
    await signIn(grand.page, language, 'grand@demo.test');
    await grand.page.waitForURL('**/management/brand-list*');
    await grand.page.goto(`/management/hotel-list/${hotel.id}`);
    await grand.page.getByRole('heading', { name: renamed, level: 1 }).waitFor();
    await grand.page.getByTestId('host-info').getByRole('cell', { name: address }).waitFor();
    expect(await grand.page.getByTestId('host-logo').locator('img').getAttribute('src')).toBe(newLogo);
    await grand.context.close();
  });
});

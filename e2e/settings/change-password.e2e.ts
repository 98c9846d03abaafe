import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS, toastText } from '../support/browser';
import { apiCall, createUserWithPassword, uniqueEmail } from '../support/api';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(LANGUAGES)('change password (%s)', (language) => {
  const t = TEXTS[language];

  it('refuses a mismatched confirmation, then changes the password: the old one stops working', async () => {
    const email = uniqueEmail(`pw-${language}`);
    await createUserWithPassword(
      'hotel.admin@demo.test',
      { email, fullName: 'Ken Mori', role: 'staff' },
      'first-pass-1',
    );

    const { context, page } = await openPage(browser, language);
    await signIn(page, language, email, 'first-pass-1');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/settings');
    const form = page.getByTestId('change-password-form');
    await form.waitFor();
    // Campaign email settings and domains are for admins.
    expect(await page.getByTestId('settings-domain').count()).toBe(0);

    await form.locator('input[name="currentPassword"]').fill('first-pass-1');
    await form.locator('input[name="newPassword"]').fill('second-pass-2');
    await form.locator('input[name="confirmation"]').fill('second-pass-3');
    await form.getByRole('button', { name: t.settings.password.submit }).click();
    await form.getByText(t.validation.password_mismatch).waitFor();

    await form.locator('input[name="confirmation"]').fill('second-pass-2');
    await form.getByRole('button', { name: t.settings.password.submit }).click();
    expect(await toastText(page)).toContain(t.settings.password.changed);
    await screenshot(page, `settings-${language}`);
    // This session goes on with the token the change answered with.
    await page.reload();
    await form.waitFor();
    expect(page.url()).toContain('/settings');

    expect((await apiCall('POST', '/v1/auth/login', { body: { email, password: 'first-pass-1' } })).status).toBe(401);
    expect((await apiCall('POST', '/v1/auth/login', { body: { email, password: 'second-pass-2' } })).status).toBe(200);
    await context.close();
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  launchBrowser,
  openPage,
  readOutbox,
  screenshot,
  signIn,
  TEXTS,
  toastText,
  type TLanguage,
} from '../support/browser';
import { apiCall, apiToken, passwordLinkFromOutbox } from '../support/api';

// hotel.staff's password changes here; it is set back to the demo password at the end, as other
// files sign in with it (the order of files is not fixed).
const ACCOUNT = 'hotel.staff@demo.test';
const LAST_PASSWORD = 'new-pass-2025';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  const token = await apiToken(ACCOUNT, LAST_PASSWORD).catch(() => null);
  if (token) {
    const back = await apiCall('POST', '/v1/auth/change-password', {
      token,
      body: { currentPassword: LAST_PASSWORD, newPassword: DEMO_PASSWORD },
    });
    expect(back.status).toBe(200);
  }
});

// One after the other: each language resets the same account's password.
describe.each([
  ['ja', 'shin-pass-2024'],
  ['en', LAST_PASSWORD],
] as [TLanguage, string][])('password reset (%s)', (language, newPassword) => {
  const t = TEXTS[language];

  it('mails a link, sets the new password through it, and signs in with it; the spent link is refused', async () => {
    const before = (await readOutbox(ACCOUNT)).length;
    const { context, page } = await openPage(browser, language);
    await page.getByRole('link', { name: t.auth.login.forgot_link }).click();
    await page.waitForURL('**/forgot-password');
    await page.locator('input[name="email"]').fill(`  ${ACCOUNT} `);
    await page.getByRole('button', { name: t.auth.forgot_password.submit }).click();
    await page.waitForURL('**/forgot-password/email-sent?email=*');
    expect(await page.getByText(ACCOUNT).first().textContent()).toContain(
      t.auth.email_sent.message_with_email.replace('{{email}}', ACCOUNT),
    );

    const link = await passwordLinkFromOutbox(ACCOUNT, before);
    const path = new URL(link).pathname + new URL(link).search;
    await page.goto(path);
    await page.locator('input[name="new-password"]').waitFor();
    // The rules of section 5 before the server is asked.
    await page.locator('input[name="new-password"]').fill('short1');
    await page.locator('input[name="confirm-password"]').fill('different1');
    await page.getByRole('button', { name: t.auth.reset_password.submit }).click();
    await page.getByText(t.validation.password_too_short).waitFor();
    await page.getByText(t.validation.password_mismatch).waitFor();
    await screenshot(page, `reset-password-${language}`);

    await page.locator('input[name="new-password"]').fill(newPassword);
    await page.locator('input[name="confirm-password"]').fill(newPassword);
    await page.getByRole('button', { name: t.auth.reset_password.submit }).click();
    await page.waitForURL('**/login?successBanner=true');
    expect(await page.getByTestId('success-banner').textContent()).toBe(t.auth.login.success_banner);

    await signIn(page, language, ACCOUNT, newPassword);
    await page.waitForURL((url) => url.pathname === '/');
    expect(await toastText(page)).toContain(t.shell.toast.logged_in);

    // The link is spent: opening it again ends on the error page.
    const second = await context.newPage();
    await second.goto(path);
    await second.waitForURL('**/forgot-password/error');
    expect(await second.getByTestId('reset-error-message').textContent()).toBe(t.errors.reset_link_expired);
    await screenshot(second, `reset-link-expired-${language}`);
    await context.close();
  });

  it('refuses an unregistered address with the catalogue text', async () => {
    const { context, page } = await openPage(browser, language);
    await page.goto('/forgot-password');
    await page.locator('input[name="email"]').fill('nobody@demo.test');
    await page.getByRole('button', { name: t.auth.forgot_password.submit }).click();
    await page.getByText(t.errors.unregistered_email).waitFor();
    await context.close();
  });
});

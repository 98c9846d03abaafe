import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS, toastText } from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(LANGUAGES)('signing in (%s)', (language) => {
  const t = TEXTS[language];

  it('sends a visitor without a token to /login', async () => {
    const { context, page } = await openPage(browser, language);
    await page.goto('/customer-list');
    await page.waitForURL('**/login');
    await page.getByRole('heading', { name: t.auth.login.title }).waitFor();
    await screenshot(page, `login-${language}`);
    await context.close();
  });

  it('checks the fields before calling the server', async () => {
    const { context, page } = await openPage(browser, language);
    await page.getByRole('button', { name: t.auth.login.submit, exact: true }).click();
    await expect(page.getByText(t.validation.required).count()).resolves.toBe(2);
    await context.close();
  });

  it('shows the catalogue message for a wrong password', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'hotel.admin@demo.test', 'wrong-pass-1');
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(t.errors.invalid_credentials);
    expect(page.url()).toContain('/login');
    await context.close();
  });

  it('signs in to the dashboard with the "logged in successfully" toast', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'hotel.admin@demo.test');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await toastText(page)).toContain(t.shell.toast.logged_in);
    // The flag is dropped once the toast is shown, so a reload does not repeat it.
    await page.waitForURL((url) => !url.search.includes('loginSuccess'));
    await page.getByTestId('level-info').waitFor();
    expect(await page.getByTestId('level-info').textContent()).toContain(t.roles.hotel.admin);
    await screenshot(page, `shell-${language}`);
    await context.close();
  });

  it('starts the granduser, who has no dashboard, on the brand list', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'grand@demo.test');
    await page.waitForURL('**/management/brand-list?loginSuccess=true');
    expect(await toastText(page)).toContain(t.shell.toast.logged_in);
    await page.getByTestId('host-table').waitFor();
    await expect(page.getByRole('link', { name: t.nav.dashboard }).count()).resolves.toBe(0);
    await context.close();
  });

  it('signs out to /login, after which the console is closed again', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'hotel.admin@demo.test');
    await page.waitForURL((url) => url.pathname === '/');
    // A page opened by its address (the profile then comes from the shell's first load).
    await page.goto('/settings');
    await page.getByTestId('host-info-form').waitFor();
    // Signing out asks nothing more of the signed-in API and breaks nothing on the way out.
    const pageErrors: string[] = [];
    const refused: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('response', (response) => {
      if (response.status() === 401) refused.push(new URL(response.url()).pathname);
    });
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: t.shell.menu.sign_out }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: t.auth.login.submit, exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
    expect(refused).toEqual([]);
    await page.goto('/settings');
    await page.waitForURL('**/login');
    await context.close();
  });

  it('shows the page-not-found screen for an unknown path', async () => {
    const { context, page } = await openPage(browser, language);
    await page.goto('/no-such-page');
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByTestId('not-found').textContent()).toContain(t.errors.not_found);
    await context.close();
  });
});

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken, passwordLinkFromOutbox, uniqueEmail } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, readOutbox, signIn, TEXTS, toastText } from '../support/browser';
import { createHostInConsole } from '../support/hosts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// Issue 4, done when: a granduser builds a new brand's organisation, staffs it and hands it over
// in the console alone, and no other brand's users can see any of it.
describe.each(LANGUAGES)('handing over a new brand (%s)', (language) => {
  const t = TEXTS[language];

  it('is built, staffed and handed over by the granduser, and stays out of other brands’ sight', async () => {
    const stamp = `${language}-${Date.now().toString(36)}`;
    const brand = `引き継ぎブランド ${stamp}`;
    const hotel = `引き継ぎホテル ${stamp}`;
    const owner = uniqueEmail(`owner-${language}`);

    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'grand@demo.test');
    await page.waitForURL('**/management/brand-list*');
    await createHostInConsole(page, language, 'brand', brand);
    await page.goto('/management/hotel-list');
    await createHostInConsole(page, language, 'hotel', hotel, brand);

    // Act as the new brand's admin, through the switch-role dialog, and add its first user.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: t.shell.menu.switch_role }).click();
    const dialog = page.getByTestId('switch-role-dialog').getByRole('dialog');
    await dialog.getByRole('searchbox').fill(brand);
    await dialog.getByTestId('role-tab-brand').click();
    await dialog.getByTestId('role-row').filter({ hasText: brand }).click();
    await page.waitForURL((url) => url.search.includes('switchedRoleSuccess=true'));
    await page.getByTestId('level-info').getByText(brand).waitFor();
    await page.goto('/user-list');
    await page.getByRole('button', { name: t.users.form.add_title }).click();
    const form = page.getByTestId('user-form');
    await form.locator('input[name="fullName"]').fill('引継 花子');
    await form.locator('input[name="nickName"]').fill('はなこ');
    await form.locator('input[name="phoneNumber"]').fill('0312340000');
    await form.locator('input[name="email"]').fill(owner);
    await form.locator('select[name="role"]').selectOption('admin');
    await form.locator('select[name="language"]').selectOption(language);
    const before = (await readOutbox(owner)).length;
    await form.getByRole('button', { name: t.users.form.add_submit }).click();
    expect(await toastText(page)).toContain(t.users.form.added);
    await context.close();

    // The new brand admin sets a password from the mail and finds their organisation.
    const link = new URL(await passwordLinkFromOutbox(owner, before));
    const handed = await openPage(browser, language);
    await handed.page.goto(link.pathname + link.search);
    await handed.page.locator('input[name="new-password"]').fill('handover-pass-1');
    await handed.page.locator('input[name="confirm-password"]').fill('handover-pass-1');
    await handed.page.getByRole('button', { name: t.auth.reset_password.submit }).click();
    await handed.page.waitForURL('**/login?successBanner=true');
    await signIn(handed.page, language, owner, 'handover-pass-1');
    const levelInfo = handed.page.getByTestId('level-info');
    await levelInfo.getByText(brand).waitFor();
    expect(await levelInfo.textContent()).toContain(t.roles.brand.admin);
    await handed.page.goto('/management/hotel-list');
    await handed.page.locator(`[data-testid="host-row"][data-name="${hotel}"]`).waitFor();
    await handed.context.close();

    // Another brand's admin finds none of it, in the console or through the API.
    const other = await openPage(browser, language);
    await signIn(other.page, language, 'harbor.admin@demo.test');
    await other.page.getByTestId('level-info').waitFor();
    await other.page.goto('/management/hotel-list');
    await other.page.getByRole('searchbox').fill(hotel);
    await other.page.getByTestId('empty-state').waitFor();
    await other.context.close();
    const harbor = await apiToken('harbor.admin@demo.test');
    const hotels = await apiCall<{ items: { name: string }[] }>(
      'GET',
      `/v1/hotels?search=${encodeURIComponent(hotel)}`,
      {
        token: harbor,
      },
    );
    expect(hotels.data.items).toEqual([]);
    const users = await apiCall<{ items: { email: string }[] }>(
      'GET',
      `/v1/users?search=${encodeURIComponent(owner)}`,
      {
        token: harbor,
      },
    );
    expect(users.data.items).toEqual([]);
  });
});

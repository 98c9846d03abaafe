import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  TEXTS,
  toastText,
  type TLanguage,
} from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const roleHeaders = (request: Request) => {
  const h = request.headers();
  return [h['x-user-role'], h['x-host-slug'], h['x-host-level']].map((v) => (v ?? '').trim());
};

async function openSwitchRole(page: Page, language: TLanguage) {
  const t = TEXTS[language];
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: t.shell.menu.switch_role }).click();
  const dialog = page.getByTestId('switch-role-dialog').getByRole('dialog');
  await dialog.getByTestId('role-row').first().waitFor();
  return dialog;
}

describe.each(LANGUAGES)('switch role (%s)', (language) => {
  const t = TEXTS[language];

  it('switches to another role through the dialog, then back to the default role', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'multi@demo.test');
    await page.getByTestId('level-info').waitFor();

    const dialog = await openSwitchRole(page, language);
    expect(Math.round((await dialog.boundingBox())!.width)).toBe(740);
    // Tabs only for the levels the user has; the default tab (hotel) is open.
    expect(await dialog.getByTestId('role-tab-grand_user').count()).toBe(0);
    expect(await dialog.getByTestId('role-tab-hotel').getAttribute('aria-selected')).toBe('true');
    const selected = dialog.locator('[data-testid="role-row"][aria-current="true"]');
    expect(await selected.isDisabled()).toBe(true);
    expect(await selected.textContent()).toContain(t.switch_role.default_badge);
    await screenshot(page, `switch-role-${language}`);

    // The search re-fetches once typing pauses, and only matching levels keep a tab.
    const searched = page.waitForRequest((r) => r.url().includes('/v1/auth/assignable?search='));
    await dialog.getByRole('searchbox').fill('関西');
    expect(decodeURIComponent((await searched).url())).toContain('search=関西');
    await dialog.getByTestId('role-tab-hotel_group').waitFor();
    await dialog.getByTestId('role-tab-hotel').waitFor({ state: 'detached' });
    await dialog.getByRole('searchbox').fill('');

    await dialog.getByTestId('role-tab-brand').click();
    const meAsBrand = page.waitForRequest(
      (r) => r.url().endsWith('/v1/auth/me') && roleHeaders(r)[1] === 'harbor-view',
    );
    await dialog.locator('[data-testid="role-row"][data-slug="harbor-view"]').click();
    await page.waitForURL((url) => url.pathname === '/' && url.search.includes('switchedRoleSuccess=true'));
    expect(roleHeaders(await meAsBrand)).toEqual(['viewer', 'harbor-view', 'brand']);
    expect(await toastText(page)).toContain(t.shell.toast.switched_role);
    const levelInfo = page.getByTestId('level-info');
    await levelInfo.getByText('Harbor View Hotels').waitFor();
    expect(await levelInfo.textContent()).toContain(t.roles.brand.viewer);
    // The new role's headers stay in effect after a reload.
    const meAfterReload = page.waitForRequest((r) => r.url().endsWith('/v1/auth/me'));
    await page.reload();
    expect(roleHeaders(await meAfterReload)).toEqual(['viewer', 'harbor-view', 'brand']);

    const again = await openSwitchRole(page, language);
    const back = page.waitForRequest((r) => r.url().endsWith('/v1/auth/me') && roleHeaders(r)[0] === '');
    await again.getByTestId('back-to-default-role').click();
    await page.waitForURL((url) => url.search.includes('switchedRoleSuccess=true'));
    expect(roleHeaders(await back)).toEqual(['', '', '']);
    expect(await toastText(page)).toContain(t.shell.toast.switched_role);
    await page.getByTestId('level-info').getByText('Harbor View Okinawa').waitFor();
    await context.close();
  });

  it('offers no switch role to a user with a single role', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'hotel.viewer@demo.test');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: t.shell.menu.my_profile }).waitFor();
    expect(await page.getByRole('menuitem', { name: t.shell.menu.switch_role }).count()).toBe(0);
    await context.close();
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS, type TLanguage } from '../support/browser';

/**
 * The platform holds no brand's data: at the platform the granduser meets the segment, campaign
 * and scenario lists' create actions disabled with the hint to switch to a brand (the server
 * refuses them there: brand_host_required), and once switched to a brand's admin creates as ever.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const LISTS = [
  { path: '/segmentation', ready: 'segment', create: (t: (typeof TEXTS)[TLanguage]) => t.segmentation.actions.create },
  { path: '/campaign', ready: 'campaign', create: (t: (typeof TEXTS)[TLanguage]) => t.campaign.actions.create },
  {
    path: '/automations/scenario',
    ready: 'scenario',
    create: (t: (typeof TEXTS)[TLanguage]) => t.automations.scenario.create,
  },
] as const;

/** The list's create action (a link or a button), once the list has loaded. */
async function createAction(page: Page, path: string, name: string) {
  await page.goto(path);
  const action = page
    .getByRole('main')
    .getByRole('button', { name })
    .or(page.getByRole('main').getByRole('link', { name }));
  await action.first().waitFor();
  return action.first();
}

describe.each(LANGUAGES)('creating brand data as the granduser (%s)', (language) => {
  const t = TEXTS[language];

  it('is disabled at the platform with the hint to switch to a brand, and works as the brand admin', async () => {
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'grand@demo.test');
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));

    for (const list of LISTS) {
      const action = await createAction(page, list.path, list.create(t));
      expect(await action.isDisabled(), list.path).toBe(true);
      const hint = page.getByRole('main').getByTestId('brand-host-required').first();
      expect(await hint.textContent(), list.path).toBe(t.errors.brand_host_required);
      expect(await hint.isVisible(), list.path).toBe(true);
    }
    await screenshot(page, `platform-creates-${language}`);

    // The role switcher the hint names: to the brand's admin.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: t.shell.menu.switch_role }).click();
    const dialog = page.getByTestId('switch-role-dialog').getByRole('dialog');
    await dialog.getByTestId('role-tab-brand').click();
    await dialog.locator('[data-testid="role-row"][data-slug="sakura-hotels"]').first().click();
    await page.waitForURL((url) => url.search.includes('switchedRoleSuccess=true'));

    for (const list of LISTS) {
      const action = await createAction(page, list.path, list.create(t));
      expect(await action.isDisabled(), list.path).toBe(false);
      expect(await page.getByTestId('brand-host-required').count(), list.path).toBe(0);
    }
    // And the create goes through: a draft scenario, opened in its editor.
    await (await createAction(page, '/automations/scenario', t.automations.scenario.create)).click();
    await page.waitForURL(
      (url) => url.pathname === '/automations/editor' && /^[0-9a-f-]{36}$/.test(url.searchParams.get('id') ?? ''),
    );
    await context.close();
  }, 120_000);
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  TEXTS,
  type TLanguage,
  type TPageOptions,
} from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function sidebarWidth(page: Page, expected: number): Promise<number> {
  const sidebar = page.getByTestId('sidebar');
  // The width animates for 150 ms where motion is not reduced.
  await page.waitForFunction(
    (w) => Math.round(document.querySelector('[data-testid="sidebar"]')!.getBoundingClientRect().width) === w,
    expected,
    { timeout: 5_000 },
  );
  return Math.round((await sidebar.boundingBox())!.width);
}

async function signedIn(language: TLanguage, email: string, options: TPageOptions = {}) {
  const { context, page } = await openPage(browser, language, options);
  await signIn(page, language, email);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.getByTestId('sidebar').waitFor();
  return { context, page };
}

/**
 * A modal's transform in the frame it first appears in: 'none' when it appears at its place. The
 * switch-role dialog is opened a second time, as a page's dialog that is already mounted opens (a
 * Mantine modal mounted open has no entrance).
 */
async function dialogEntrance(page: Page, language: TLanguage): Promise<string> {
  const t = TEXTS[language];
  const dialog = page.getByTestId('switch-role-dialog').getByRole('dialog');
  const openDialog = async () => {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: t.shell.menu.switch_role }).click();
  };
  await openDialog();
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  // Read in the mutation's microtask, before a next frame could move the dialog.
  await page.evaluate(() => {
    const observer = new MutationObserver(() => {
      const shown = document.querySelector('[data-testid="switch-role-dialog"] [role="dialog"]');
      if (!shown) return;
      observer.disconnect();
      document.body.dataset.dialogEntrance = getComputedStyle(shown).transform;
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  await openDialog();
  const entrance = await page.waitForFunction(() => document.body.dataset.dialogEntrance);
  const transform = (await entrance.jsonValue()) ?? '';
  await entrance.dispose();
  return transform;
}

describe.each(LANGUAGES)('console shell (%s)', (language) => {
  const t = TEXTS[language];

  it('collapses the sidebar to 88px icons and expands it back to 230px, also by clicking an item', async () => {
    const { context, page } = await signedIn(language, 'brand.admin@demo.test');
    expect(await sidebarWidth(page, 230)).toBe(230);
    await page.getByTestId('sidebar-toggle').click();
    expect(await sidebarWidth(page, 88)).toBe(88);
    await expect(page.getByText(t.nav.settings, { exact: true }).isVisible()).resolves.toBe(false);
    await screenshot(page, `shell-collapsed-${language}`);
    await page.getByRole('button', { name: t.nav.customer, exact: true }).click();
    expect(await sidebarWidth(page, 230)).toBe(230);
    // The group clicked while collapsed opens; its header toggles it while expanded.
    const customerList = page.getByRole('link', { name: t.nav.customer_list });
    await customerList.waitFor();
    await page.getByRole('button', { name: t.nav.customer, exact: true }).click();
    await customerList.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('moves without animation for a user whose system asks for less motion, as the specs’ browser does', async () => {
    const motion = async (options: TPageOptions) => {
      const { context, page } = await signedIn(language, 'brand.admin@demo.test', options);
      const toast = page.getByTestId('snackbar').last();
      await toast.waitFor();
      const styles = {
        sidebar: await page.getByTestId('sidebar').evaluate((e) => getComputedStyle(e).transitionDuration),
        snackbar: await toast.evaluate((e) => getComputedStyle(e).animationName),
        // What Mantine's own transitions (modals, drawers, menus, dropdowns) follow.
        mantine: await page.evaluate(() => document.documentElement.hasAttribute('data-respect-reduced-motion')),
        dialog: await dialogEntrance(page, language),
      };
      await context.close();
      return styles;
    };
    expect(await motion({ reducedMotion: 'no-preference' })).toEqual({
      sidebar: '0.15s',
      snackbar: expect.stringContaining('snackbar-in'),
      mantine: true,
      // Above its place (translateY(-30px)), to slide down.
      dialog: expect.stringMatching(/^matrix\(.*-30\)$/),
    });
    // The specs' default (support/browser.ts, newContext).
    expect(await motion({})).toEqual({ sidebar: '0s', snackbar: 'none', mantine: true, dialog: 'none' });
  });

  it('opens an area from the sidebar and marks it active; every area of the sidebar is built', async () => {
    const { context, page } = await signedIn(language, 'brand.admin@demo.test');
    await page.getByRole('button', { name: t.nav.management, exact: true }).click();
    await page.getByRole('link', { name: t.nav.hotel_list }).click();
    await page.waitForURL('**/management/hotel-list');
    await page.getByRole('link', { name: t.nav.hotel_list }).and(page.locator('[aria-current="page"]')).waitFor();
    await page.getByTestId('host-table').waitFor();
    expect(await page.getByRole('link', { name: t.nav.dashboard }).getAttribute('aria-current')).toBeNull();
    // The last area to be built: its page, not the placeholder that said "not available yet".
    await page.goto('/automations/scenario');
    // The header's button (an empty list offers a second one, its next step).
    await page.getByRole('button', { name: t.automations.scenario.create }).first().waitFor();
    expect(await page.getByTestId('area-not-available').count()).toBe(0);
    await context.close();
  });

  it('shows an admin what a viewer does not see', async () => {
    const admin = await signedIn(language, 'hotel.admin@demo.test');
    await admin.page.getByTestId('quick-actions').waitFor();
    await admin.page.goto('/settings');
    await admin.page.getByTestId('host-info-form').getByRole('button', { name: t.common.save }).waitFor();
    await admin.context.close();

    const viewer = await signedIn(language, 'hotel.viewer@demo.test');
    await viewer.page.getByTestId('level-info').waitFor();
    expect(await viewer.page.getByTestId('quick-actions').count()).toBe(0);
    // A brand-level area is not offered, and typing its address says the role has no access.
    expect(await viewer.page.getByRole('button', { name: t.nav.management, exact: true }).count()).toBe(0);
    await viewer.page.goto('/management/hotel-list');
    expect(await viewer.page.getByTestId('area-forbidden').textContent()).toContain(t.errors.forbidden);
    await screenshot(viewer.page, `viewer-forbidden-${language}`);
    await viewer.context.close();
  });

  it('switches the language from the footer menu, and the choice survives a reload', async () => {
    const { context, page } = await signedIn(language, 'hotel.admin@demo.test');
    const other: TLanguage = language === 'ja' ? 'en' : 'ja';
    const switchItem = language === 'ja' ? t.shell.menu.switch_to_english : t.shell.menu.switch_to_japanese;
    const hiddenItem = language === 'ja' ? t.shell.menu.switch_to_japanese : t.shell.menu.switch_to_english;
    await page.getByTestId('user-menu').click();
    expect(await page.getByRole('menuitem', { name: hiddenItem }).count()).toBe(0);
    await page.getByRole('menuitem', { name: switchItem }).click();
    await page.getByRole('link', { name: TEXTS[other].nav.dashboard }).waitFor();
    await page.reload();
    await page.getByRole('link', { name: TEXTS[other].nav.dashboard }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(other);
    await context.close();
  });

  it('shows My profile with the original environment', async () => {
    const { context, page } = await signedIn(language, 'multi@demo.test');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: t.shell.menu.my_profile }).click();
    const dialog = page.getByRole('dialog', { name: t.profile.title });
    await dialog.waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain('multi@demo.test');
    expect(text).toContain(t.profile.original_environment);
    expect(text).toContain('Harbor View Okinawa');
    await screenshot(page, `my-profile-${language}`);
    // An open modal locks the page's scrolling; closing it releases the lock.
    const bodyOverflow = () => page.evaluate(() => getComputedStyle(document.body).overflow);
    expect(await bodyOverflow()).toBe('hidden');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => getComputedStyle(document.body).overflow !== 'hidden');
    await context.close();
  });
});

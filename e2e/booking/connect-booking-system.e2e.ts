import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS, type TLanguage } from '../support/browser';
import { apiCall, apiToken } from '../support/api';

/**
 * A brand admin connects the brand to the booking system: settings, then /yoyaku-verification,
 * then the countdown of /yoyaku-verification/redirect back to settings, where the sync log shows
 * the first run finished; the synced customers are there. The demo account DBK-100990 belongs to
 * no demo brand, so each language borrows a demo brand (Sakura in Japanese, Harbor View in English),
 * moves it to DBK-100990 through the console, and gives it back its own account afterwards.
 */
const FREE_ACCOUNT = { id: 'DBK-100990', name: '湯けむり温泉グループ', key: 'dbk_demo_yukemuri_5a1d7c3e9b0f2846' };
const CASES: Record<TLanguage, { admin: string; own: { id: string; key: string } }> = {
  ja: { admin: 'brand.admin@demo.test', own: { id: 'DBK-100234', key: 'dbk_demo_sakura_7f3c9a1e5b2d4068' } },
  en: { admin: 'harbor.admin@demo.test', own: { id: 'DBK-100871', key: 'dbk_demo_harbor_2e8b6d0f9c1a4375' } },
};

interface TStatus {
  connection: { accountId: string } | null;
  runs: { trigger: string; status: string; customersCreated: number }[];
  syncPending: boolean;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function status(token: string): Promise<TStatus> {
  return (await apiCall<TStatus>('GET', '/v1/booking/connection', { token })).data;
}

/** Waits until no sync of the brand is pending (the first start's demo sync, say). */
async function settled(token: string): Promise<TStatus> {
  for (let i = 0; i < 240; i += 1) {
    const s = await status(token);
    if (!s.syncPending) return s;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the sync did not finish');
}

async function connectInSettings(page: Page, language: TLanguage, accountId: string, apiKey: string): Promise<void> {
  const t = TEXTS[language];
  await page.goto('/settings');
  const form = page.getByTestId('booking-connect-form');
  await form.waitFor();
  await form.locator('input[name="accountId"]').fill(accountId);
  await form.locator('input[name="apiKey"]').fill(apiKey);
  await form.getByRole('button', { name: t.booking_sync.settings.connect, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/yoyaku-verification');
}

describe.each(LANGUAGES)('booking system connection (%s)', (language) => {
  const t = TEXTS[language];
  const { admin, own } = CASES[language];

  afterAll(async () => {
    // Give the brand its own account back, as the demo has it.
    const token = await apiToken(admin);
    await settled(token);
    await apiCall('DELETE', '/v1/booking/connection', { token });
    await apiCall('POST', '/v1/booking/connection', { token, body: { accountId: own.id, apiKey: own.key } });
    await settled(token);
  });

  it('is refused outside a brand: the page says so, and the server refuses the hotel all the same', async () => {
    const { context, page } = await openPage(browser, language);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/booking')) asked.push(request.url());
    });
    await signIn(page, language, 'hotel.admin@demo.test');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/settings');
    await page.getByTestId('booking-unavailable').getByText(t.errors.booking_brand_only).waitFor();
    expect(asked).toEqual([]);
    await context.close();
    const token = await apiToken('hotel.admin@demo.test');
    for (const [method, path] of [
      ['GET', '/v1/booking/connection'],
      ['POST', '/v1/booking/connection'],
    ] as const) {
      const refused = await apiCall(method, path, {
        token,
        body: method === 'POST' ? { accountId: 'DBK-1', apiKey: 'k' } : undefined,
      });
      expect(refused.status).toBe(403);
    }
  });

  it('disconnects, is refused an account another brand holds, then connects and sees the synced customers', async () => {
    const token = await apiToken(admin);
    await settled(token);
    const customersBefore = (await apiCall<{ total: number }>('GET', '/v1/customers?limit=1', { token })).data.total;

    const { context, page } = await openPage(browser, language);
    await signIn(page, language, admin);
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/settings');
    const section = page.getByTestId('settings-booking');
    await section.getByTestId('booking-daily-notice').waitFor();
    expect(await section.getByTestId('booking-daily-notice').textContent()).toContain(
      t.booking_sync.settings.daily_notice.split('{{')[0]!.trim(),
    );
    // The brand's demo connection: disconnect it.
    await section.getByTestId('booking-connection').getByText(own.id).waitFor();
    await section.getByRole('button', { name: t.booking_sync.settings.disconnect, exact: true }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t.booking_sync.settings.disconnect, exact: true })
      .click();
    await section.getByTestId('booking-connect-form').waitFor();

    // An account another brand holds is refused with the specification's message, in the user's language.
    const taken = language === 'ja' ? CASES.en.own : CASES.ja.own;
    await connectInSettings(page, language, taken.id, taken.key);
    const refusal = page.getByTestId('yoyaku-verification-message');
    await page.locator('[data-testid="yoyaku-verification"][data-state="failed"]').waitFor();
    expect(await refusal.textContent()).toBe(t.errors.booking_already_connected);
    await page.getByRole('link', { name: t.booking_sync.back_to_settings }).click();
    await page.waitForURL((url) => url.pathname === '/settings');

    // The free account: verified, then the countdown (no number shown), then back in settings.
    await connectInSettings(page, language, FREE_ACCOUNT.id, FREE_ACCOUNT.key);
    await page.locator('[data-testid="yoyaku-verification"][data-state="connected"]').waitFor();
    expect(await page.getByTestId('yoyaku-verification-message').textContent()).toContain(FREE_ACCOUNT.name);
    await screenshot(page, `yoyaku-verification-${language}`);
    await page.waitForURL((url) => url.pathname === '/yoyaku-verification/redirect');
    const redirect = page.getByTestId('yoyaku-redirect');
    await redirect.getByText(t.booking_sync.redirect.message).waitFor();
    expect(await redirect.textContent()).not.toMatch(/[0-9０-９]/);
    await screenshot(page, `yoyaku-redirect-${language}`);
    await page.waitForURL((url) => url.pathname === '/settings', { timeout: 15_000 });

    // The sync log shows the first run finished.
    const run = page.locator('[data-testid="booking-sync-run"][data-status="succeeded"]').first();
    await run.waitFor({ timeout: 120_000 });
    expect(await run.textContent()).toContain(t.booking_sync.log.triggers.connect);
    await section.getByTestId('booking-connection').getByText(FREE_ACCOUNT.id).waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, `booking-settings-${language}`);
    await context.close();

    const after = await settled(token);
    expect(after.runs[0]).toMatchObject({ trigger: 'connect', status: 'succeeded' });
    expect(after.runs[0]!.customersCreated).toBeGreaterThan(0);
    const customersAfter = (await apiCall<{ total: number }>('GET', '/v1/customers?limit=1', { token })).data.total;
    expect(customersAfter).toBe(customersBefore + after.runs[0]!.customersCreated);
  });
});

import type { Browser, Page } from 'playwright-core';
import { STOP_SENTENCE } from '@yado/contracts/scenarios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS, type TLanguage } from '../support/browser';

/**
 * The dashboard in both languages, as a brand admin and as a hotel viewer, against the running
 * product: every figure on the page is the one the server answers for that role (the demo brand's
 * customers come from its first booking-system sync), and a block without data says so.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface TStats {
  customers: { current: number | null };
  activeCustomers: { current: number | null };
  unsubscribedCustomers: { current: number | null };
  lastSync: { status: string; finishedAt: string } | null;
}
interface TPerf {
  daily: { sent: number; opened: number; clicked: number; bookings: number }[];
  nextScheduled: { name: string }[];
  hotels: unknown[] | null;
}
interface TLevel {
  hotelGroups: unknown[];
  hotels: unknown[];
}

/** The demo brand's first sync is queued at start: wait for it, so the figures are settled. */
async function settledStatistics(email: string): Promise<TStats> {
  const token = await apiToken(email);
  for (let i = 0; i < 240; i++) {
    const { status, data } = await apiCall<TStats>('GET', '/v1/dashboard/customer-statistics', { token });
    expect(status).toBe(200);
    if (data.lastSync) return data;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the demo brand never synced');
}

/**
 * Reads the figures the page shows and the server counts for `email` again (reloading the page)
 * until they agree: another spec's booking sync on this product may still be adding guests.
 */
async function untilShownAsCounted(
  page: Page,
  email: string,
  shown: () => Promise<(string | null)[]>,
  counted: (stats: TStats) => string[],
): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.getByTestId('figure-customers-value').waitFor();
        const onPage = await shown();
        const onServer = counted(await settledStatistics(email));
        if (onPage.join() === onServer.join()) return true;
        await page.reload();
        return `${onPage.join()} shown, counted ${onServer.join()}`;
      },
      { timeout: 60_000, interval: 1_000 },
    )
    .toBe(true);
}

/**
 * A running scenario of さくらホテル 新宿 (a birthday trigger and a delay, so it sends nothing),
 * run through the scenarios API as the hotel's admin; stopped again when the spec is done.
 */
async function runScenario(name: string): Promise<{ stop: () => Promise<void> }> {
  const token = await apiToken('hotel.admin@demo.test');
  const graph = {
    nodes: [
      { id: 't', type: 'trigger', data: { kind: 'birthday' } },
      { id: 'd', type: 'delay', data: { kind: 'duration', amount: 1, unit: 'days' } },
    ],
    edges: [{ id: 'e1', source: 't', target: 'd' }],
  };
  const made = await apiCall<{ id: string }>('POST', '/v1/scenarios', { token, body: { name, graph } });
  expect(made.status).toBe(200);
  const run = await apiCall<{ status: string }>('POST', `/v1/scenarios/${made.data.id}/actions`, {
    token,
    body: { action: 'run' },
  });
  expect(run.data.status).toBe('running');
  return {
    stop: async () => {
      await apiCall('POST', `/v1/scenarios/${made.data.id}/actions`, {
        token,
        body: { action: 'stop', confirmation: STOP_SENTENCE },
      });
    },
  };
}

const number = (value: number, language: TLanguage) =>
  new Intl.NumberFormat(language === 'ja' ? 'ja-JP' : 'en-GB').format(value);

async function openDashboard(language: TLanguage, email: string): Promise<Page & { close: () => Promise<void> }> {
  const { context, page } = await openPage(browser, language);
  await signIn(page, language, email);
  await page.waitForURL((url) => url.pathname === '/');
  return Object.assign(page, { close: () => context.close() });
}

describe.each(LANGUAGES)('dashboard (%s)', (language) => {
  const t = TEXTS[language];

  it('shows a brand admin the brand, its groups and hotels, the counted customers, quick actions, the campaign block and a running scenario', async () => {
    const stats = await settledStatistics('brand.admin@demo.test');
    const scenarioName = `e2e dashboard ${language} ${Date.now().toString(36)}`;
    const scenario = await runScenario(scenarioName);
    const token = await apiToken('brand.admin@demo.test');
    const perf = (await apiCall<TPerf>('GET', '/v1/dashboard/campaign-performance', { token })).data;
    // Other specs on the same product add groups and hotels: the demo's two and four at least.
    const level = (await apiCall<TLevel>('GET', '/v1/dashboard/level-info', { token })).data;
    expect(level.hotelGroups.length).toBeGreaterThanOrEqual(2);
    expect(level.hotels.length).toBeGreaterThanOrEqual(4);
    const page = await openDashboard(language, 'brand.admin@demo.test');

    const info = page.getByTestId('level-info');
    await info.getByText('さくらホテルズ').waitFor();
    expect(await info.textContent()).toContain(t.roles.brand.admin);
    await info.getByTestId('level-info-contact').getByText('東京都千代田区丸の内1-1-1').waitFor();
    const children = page.getByTestId('level-children');
    await children.getByTestId('level-child-group').filter({ hasText: '関東エリア' }).waitFor();
    expect(await children.getByTestId('level-child-group').count()).toBe(level.hotelGroups.length);
    expect(await children.getByTestId('level-child-hotel').count()).toBe(level.hotels.length);

    const actions = page.getByTestId('quick-actions');
    expect(
      await actions.getByRole('link', { name: t.dashboard.quick_actions.create_campaign }).getAttribute('href'),
    ).toBe('/campaign/new');
    expect(
      await actions.getByRole('link', { name: t.dashboard.quick_actions.import_customers }).getAttribute('href'),
    ).toBe('/customer-list/import');

    // The customers the server counted, as the server counted them. Another spec's booking sync on
    // this product may still be adding guests (CI once saw 418 asked and more shown): the page is
    // read again, and the server asked again, until the two agree.
    expect(stats.customers.current).toBeGreaterThan(0);
    const figures = () =>
      Promise.all(
        ['customers', 'active', 'unsubscribed'].map((f) => page.getByTestId(`figure-${f}-value`).textContent()),
      );
    await untilShownAsCounted(page, 'brand.admin@demo.test', figures, (now) =>
      [now.customers, now.activeCustomers, now.unsubscribedCustomers].map((c) => number(c.current!, language)),
    );
    expect(await page.getByTestId('figure-customers').textContent()).toContain(t.dashboard.customers.customers);
    // Active customers are those a campaign can mail, and the card says what they need.
    expect(await page.getByTestId('figure-active').textContent()).toContain(t.dashboard.customers.active);
    expect(await page.getByTestId('figure-active-hint').textContent()).toBe(t.dashboard.customers.active_hint);
    // No count was kept a week ago on a fresh product: said so, not guessed.
    expect(await page.getByTestId('figure-customers-change').textContent()).toBe(t.dashboard.change.unknown);
    expect(await page.getByTestId('last-sync').textContent()).toContain(t.dashboard.customers.sync_schedule);

    const block = page.getByTestId('campaign-performance');
    await block.getByTestId('figure-open-rate').waitFor();
    const mailed = perf.daily.some((d) => d.sent + d.opened + d.clicked + d.bookings > 0);
    if (mailed) {
      // Another spec sent a campaign on this product: the chart and the hotels show.
      await block.getByTestId('chart-daily').waitFor();
      // The hotels' table may render a moment after the chart: wait for it, do not count at once.
      await expect
        .poll(() => block.getByTestId('hotel-breakdown-row').count(), { timeout: 10_000 })
        .toBe(perf.hotels?.length);
    } else {
      expect(await block.getByTestId('campaign-empty').textContent()).toContain(t.dashboard.campaigns.empty);
      expect(await block.getByTestId('figure-open-rate-value').textContent()).toBe('-');
      expect(await block.getByTestId('figure-open-rate-note').textContent()).toBe(t.dashboard.campaigns.no_rate);
    }
    // The scenario the hotel runs is among the brand's running scenarios, with a link to its summary.
    const row = block.locator(`[data-testid="running-scenario-row"][data-name="${scenarioName}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('さくらホテル 新宿');
    expect(await row.getByRole('link', { name: scenarioName }).getAttribute('href')).toMatch(
      /^\/automations\/scenario\/[0-9a-f-]{36}$/,
    );
    expect(await block.getByTestId('next-scheduled-row').count()).toBe(perf.nextScheduled.length);
    await screenshot(page, `dashboard-brand-${language}`);
    await page.close();
    await scenario.stop();
  });

  it('shows a hotel viewer only the hotel, no quick actions, and the read-only texts', async () => {
    const stats = await settledStatistics('hotel.viewer@demo.test');
    const token = await apiToken('hotel.viewer@demo.test');
    const perf = (await apiCall<TPerf>('GET', '/v1/dashboard/campaign-performance', { token })).data;
    const page = await openDashboard(language, 'hotel.viewer@demo.test');

    const info = page.getByTestId('level-info');
    await info.getByText('さくらホテル 新宿').waitFor();
    expect(await info.textContent()).toContain(t.roles.hotel.viewer);
    await info.getByTestId('level-info-contact').getByText('0333334444').waitFor();
    await page.getByTestId('customer-statistics').waitFor();
    expect(await page.getByTestId('quick-actions').count()).toBe(0);
    expect(await page.getByTestId('level-children').count()).toBe(0);

    if (stats.customers.current === 0) {
      expect(await page.getByTestId('customer-statistics').getByTestId('empty-state').textContent()).toContain(
        t.dashboard.customers.empty_viewer,
      );
    } else {
      // As for the brand above: another spec's booking sync may still be adding the hotel's guests
      // (CI once saw 186 asked and another number shown), so page and server are read again until
      // they agree.
      await untilShownAsCounted(
        page,
        'hotel.viewer@demo.test',
        async () => [await page.getByTestId('figure-customers-value').textContent()],
        (now) => [number(now.customers.current!, language)],
      );
    }
    const block = page.getByTestId('campaign-performance');
    await block.getByTestId('running-scenarios').waitFor();
    expect(await block.getByTestId('hotel-breakdown').count()).toBe(0);
    // The viewer reads the hotel's running scenarios as the server lists them for the viewer.
    const running = (
      await apiCall<{ scenarios: { name: string }[] }>('GET', '/v1/dashboard/running-scenarios', { token })
    ).data;
    if (running.scenarios.length === 0)
      await block.getByTestId('running-scenarios').getByText(t.dashboard.upcoming.no_scenarios).waitFor();
    else
      await block.locator(`[data-testid="running-scenario-row"][data-name="${running.scenarios[0]!.name}"]`).waitFor();
    if (!perf.daily.some((d) => d.sent + d.opened + d.clicked + d.bookings > 0)) {
      const empty = await block.getByTestId('campaign-empty').textContent();
      expect(empty).toContain(t.dashboard.campaigns.empty_viewer);
      expect(empty).not.toContain(t.dashboard.campaigns.empty);
    }
    await screenshot(page, `dashboard-hotel-viewer-${language}`);
    await page.close();
  });
});

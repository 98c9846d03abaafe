import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS } from '../support/browser';
import { arrangeCampaign, tokyoHour } from '../support/campaign-fixture';
import { outboxOf } from '../support/mail';

// Issue 24: a marketer pauses a campaign that is sending and resumes it later; while it is paused
// nothing more goes out, even once nothing else holds it. The send is held by the brand's quiet
// hours at first (put around the present moment), so it is still sending when the page opens.
const ADMIN = 'brand.admin@demo.test';
const GRAND = 'grand@demo.test';
const GUESTS = 3;

let browser: Browser;
let grand: string;
let admin: string;
let ownSettings: Record<string, unknown> | null = null;

const quietHours = (start: number, end: number) =>
  apiCall('PUT', '/v1/sending/settings', {
    token: admin,
    body: { ...ownSettings, quietHoursStart: tokyoHour(start), quietHoursEnd: tokyoHour(end) },
  });

beforeAll(async () => {
  browser = await launchBrowser();
  grand = await apiToken(GRAND);
  admin = await apiToken(ADMIN);
  const current = await apiCall<{ own: Record<string, unknown> }>('GET', '/v1/sending/settings', { token: admin });
  ownSettings = current.data.own;
});
afterAll(async () => {
  if (ownSettings) await apiCall('PUT', '/v1/sending/settings', { token: admin, body: ownSettings });
  await browser?.close();
});

const mailsTo = async (guests: string[]) =>
  (await Promise.all(guests.map((to) => outboxOf(grand, to, 5)))).reduce((n, mails) => n + mails.length, 0);

/** A template with its `{{name}}` and `{{time}}` as any text: what a paused campaign says. */
const pattern = (template: string) =>
  new RegExp(
    template
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace('\\{\\{name\\}\\}', '(.+)')
      .replace('\\{\\{time\\}\\}', '(.+)'),
  );

describe.each(LANGUAGES)('pausing a campaign that is sending (%s)', (language) => {
  const t = TEXTS[language];
  const c = t.campaign;

  it('pauses it with who and when shown, sends nothing while paused, and finishes once resumed', async () => {
    // Quiet hours from an hour ago to two hours from now: "send now" starts the send and holds it.
    expect((await quietHours(-1, 2)).status).toBe(200);
    const arranged = await arrangeCampaign(admin, language, { guests: GUESTS, prefix: 'pause' });
    const sent = await apiCall('POST', `/v1/campaigns/${arranged.campaignId}/send-now`, { token: admin, body: {} });
    expect(sent.status, JSON.stringify(sent.data)).toBe(200);

    const { page } = await openPage(browser, language);
    await signIn(page, language, ADMIN);
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto(`/campaign/${arranged.campaignId}`);
    // Sending, held by the quiet hours: it says so, and offers a pause.
    await page.getByTestId('campaign-hold').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: c.actions.pause, exact: true }).click();
    const paused = page.getByTestId('campaign-paused');
    await paused.waitFor({ timeout: 15_000 });
    const said = pattern(c.statistics.paused).exec((await paused.textContent()) ?? '');
    expect(said, (await paused.textContent()) ?? '').not.toBeNull();
    expect(said![1]).not.toBe(c.statistics.paused_someone);
    // Paused, not waiting: the pause holds it, so no quiet hours' end is named.
    await page.getByTestId('campaign-hold').waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.getByTestId('campaign-status').textContent()).toBe(c.status.paused);
    await screenshot(page, `campaign-paused-${language}`);

    // Nothing holds it now but the pause: still nothing goes out.
    expect((await quietHours(4, 6)).status).toBe(200);
    for (let i = 0; i < 8; i += 1) {
      expect(await mailsTo(arranged.guests)).toBe(0);
      await new Promise((r) => setTimeout(r, 1000));
    }
    const meanwhile = await apiCall<{ status: string; paused: unknown }>(
      'GET',
      `/v1/campaigns/${arranged.campaignId}`,
      {
        token: admin,
      },
    );
    expect(meanwhile.data.status).toBe('pending');
    expect(meanwhile.data.paused).not.toBeNull();

    // Resumed: the pause's note goes, and every guest gets the mail once.
    await page.getByRole('button', { name: c.actions.resume, exact: true }).click();
    await paused.waitFor({ state: 'detached', timeout: 15_000 });
    const until = Date.now() + 90_000;
    while ((await mailsTo(arranged.guests)) < GUESTS) {
      if (Date.now() > until) throw new Error('the resumed campaign did not reach every guest');
      await new Promise((r) => setTimeout(r, 500));
    }
    for (const guest of arranged.guests) expect(await outboxOf(grand, guest, 5)).toHaveLength(1);
    await page.reload();
    await page.getByTestId('campaign-paused').waitFor({ state: 'detached', timeout: 5_000 });
    await page.close();
  }, 150_000);
});

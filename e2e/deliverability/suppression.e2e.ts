import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken, uniqueEmail } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, signIn, TEXTS, toastText, type TLanguage } from '../support/browser';
import { formatDate, formatTime } from '../../apps/web/src/lib/dates/formatDate';
import { outboxOf } from '../support/mail';
import { quietHoursAway } from '../support/campaign-fixture';

// Issue 25 in the console: guests whose mailbox does not exist (`bounce*`) and who report spam
// (`complain*`), as the embedded sink plays them → the campaign's statistics → the suppression
// list → lift one → the next campaign mails the lifted guest and skips the complainer.
const ADMIN = 'brand.admin@demo.test';
const GRAND = 'grand@demo.test';

let browser: Browser;
let admin: string;
let grand: string;
let restoreSettings: (() => Promise<void>) | null = null;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiToken(ADMIN);
  grand = await apiToken(GRAND);
  // Quiet hours a few hours away, so "send now" sends now whatever the time of the run.
  restoreSettings = (await quietHoursAway(admin)).restore;
});
afterAll(async () => {
  await restoreSettings?.();
  await browser?.close();
});

async function until<T>(check: () => Promise<T | null>, timeoutMs = 90_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function sendCampaign(name: string, segmentId: string, templateId: string): Promise<string> {
  const created = await apiCall<{ id: string }>('POST', '/v1/campaigns', {
    token: admin,
    body: { name, subject: name, recipients: { segmentIds: [segmentId], excludeSegmentIds: [] }, templateId },
  });
  expect(created.status, JSON.stringify(created.data)).toBe(200);
  expect((await apiCall('POST', `/v1/campaigns/${created.data.id}/send-now`, { token: admin, body: {} })).status).toBe(
    200,
  );
  await until(async () => {
    const c = await apiCall<{ status: string }>('GET', `/v1/campaigns/${created.data.id}`, { token: admin });
    return c.data.status === 'sent' ? true : null;
  });
  return created.data.id;
}

describe.each(LANGUAGES)('bounces and complaints (%s)', (language: TLanguage) => {
  it('shows them in the statistics and the suppression list; a lifted guest is mailed again, the complainer not', async () => {
    const t = TEXTS[language];
    const run = `${Date.now().toString(36)}${language}`;
    const hotels = await apiCall<{ items: { id: string; name: string }[] }>('GET', '/v1/hotels?pageSize=100', {
      token: admin,
    });
    const hotelId = hotels.data.items.find((h) => h.name === 'さくらホテル 新宿')!.id;
    const guest = async (prefix: string) => {
      const email = uniqueEmail(`${prefix}-${run}`);
      const created = await apiCall<{ id: string }>('POST', '/v1/customers', {
        token: admin,
        body: {
          lastName: `Supp${run}`,
          firstName: prefix,
          email,
          phone: `080${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
          address: '東京都新宿区西新宿2-2-2',
          hotelId,
        },
      });
      expect(created.status, JSON.stringify(created.data)).toBe(200);
      return { id: created.data.id, email };
    };
    const bouncing = await guest('bounce');
    const complaining = await guest('complain');
    const fine = await guest('fine');
    const segment = await apiCall<{ id: string }>('POST', '/v1/segments', {
      token: admin,
      body: { name: `不達テスト ${run}`, type: 'static' },
    });
    await apiCall('POST', `/v1/segments/${segment.data.id}/members`, {
      token: admin,
      body: { customerIds: [bouncing.id, complaining.id, fine.id] },
    });
    const template = await apiCall<{ id: string }>('POST', '/v1/templates', {
      token: admin,
      body: {
        name: `不達テスト ${run}`,
        defaultLanguage: 'ja',
        contents: { ja: { subject: 'x', preheader: '', document: { version: 1, sections: [] } } },
      },
    });
    expect(template.status).toBe(200);
    const first = await sendCampaign(`冬のご案内 ${run}`, segment.data.id, template.data.id);
    // The sink's DSN and ARF report reach the feedback receiver a moment later.
    await until(async () => {
      const listed = await apiCall<{ total: number }>('GET', `/v1/suppressions?search=${run}`, { token: admin });
      return listed.data.total === 2 ? true : null;
    });

    const { context, page } = await openPage(browser, language);
    await signIn(page, language, ADMIN);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto(`/campaign/${first}`);
    await expect.poll(async () => page.getByTestId('stat-hard-bounces').textContent()).toContain('1');
    expect(await page.getByTestId('stat-hard-bounces').textContent()).toContain(t.campaign.statistics.hard_bounces);
    expect(await page.getByTestId('stat-complaints').textContent()).toContain('1');
    // Three mails accepted by the relay; the one that bounced afterwards is not counted as delivered.
    expect(await page.getByTestId('stat-sent-value').textContent()).toBe('3');
    expect(await page.getByTestId('stat-delivered-value').textContent()).toBe('2');
    expect(await page.getByTestId('stat-delivered').getByLabel(t.campaign.statistics.delivered_hint).count()).toBe(1);
    // The recipient list shows the bounce as classified, with the report's diagnostic.
    const feedback = page.locator(
      `[data-testid="campaign-recipient"][data-email="${bouncing.email}"] [data-testid="campaign-recipient-feedback"]`,
    );
    await feedback.waitFor();
    expect(await feedback.textContent()).toContain(t.campaign.feedback.hard_bounce);
    expect(await feedback.textContent()).toContain('5.1.1');

    // Settings: the brand's protection thresholds and its relay webhooks, in the user's language.
    await page.goto('/settings#protection');
    const protection = page.getByTestId('protection-form');
    await protection.waitFor();
    expect(await protection.getByLabel(t.sending.protection.fields.hard_bounce_pct).inputValue()).toBe('5');
    expect(await page.getByTestId('settings-relay-webhooks').textContent()).toContain(t.sending.relay.providers.ses);

    await page.goto('/suppression-list');
    await page.getByPlaceholder(t.customers.suppressions.search).fill(run);
    await page.getByPlaceholder(t.customers.suppressions.search).press('Enter');
    const rowOf = (email: string) => page.locator(`[data-testid="suppression-row"][data-email="${email}"]`);
    await rowOf(bouncing.email).waitFor();
    expect(await rowOf(bouncing.email).textContent()).toContain(t.customers.suppressions.reasons.hard_bounce);
    expect(await rowOf(bouncing.email).textContent()).toContain('5.1.1');
    expect(await rowOf(complaining.email).textContent()).toContain(t.customers.suppressions.reasons.complaint);
    // Each diagnostic keeps to two lines, and one they clip offers itself whole (measured here, laid out).
    const diagnostics = await page.getByTestId('suppression-diagnostic').evaluateAll((cells) =>
      cells.map((cell) => ({
        lines: cell.clientHeight / parseFloat(getComputedStyle(cell).lineHeight),
        clipped: cell.scrollHeight > cell.clientHeight + 1,
        offered: cell.parentElement?.querySelector('[data-testid="suppression-diagnostic-toggle"]') !== null,
      })),
    );
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const diagnostic of diagnostics) {
      expect(diagnostic.lines).toBeLessThanOrEqual(2.05);
      expect(diagnostic.offered).toBe(diagnostic.clipped);
    }

    await page
      .getByRole('button', { name: t.customers.suppressions.row_actions.replace('{{email}}', bouncing.email) })
      .click();
    await page.getByRole('menuitem', { name: t.customers.suppressions.lift }).click();
    // Shown at its place from its first frame (reduced motion, support/browser.ts newContext).
    const dialog = page.getByRole('dialog');
    // A double click lifts once: a success, and no "no longer on the list" from a second request.
    await dialog.getByRole('button', { name: t.customers.suppressions.lift }).dblclick();
    expect(await toastText(page)).toContain(t.customers.suppressions.done.lifted.replace('{{email}}', bouncing.email));
    await rowOf(bouncing.email).waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid="snackbar"][data-status="failed"]').count()).toBe(0);
    expect(await rowOf(complaining.email).count()).toBe(1);
    await context.close();

    // The next campaign goes to the lifted guest and the fine one, never to the complainer.
    await sendCampaign(`春のご案内 ${run}`, segment.data.id, template.data.id);
    expect(await outboxOf(grand, fine.email)).toHaveLength(2);
    expect(await outboxOf(grand, bouncing.email)).toHaveLength(2);
    expect(await outboxOf(grand, complaining.email)).toHaveLength(1);
  }, 240_000);
});

/**
 * A browser zone whose date and time of `instant` differ from `hostZone`'s: Pago Pago (UTC-11), or
 * Kiritimati (UTC+14) where the host's day is almost over and Pago Pago's would be the same day.
 */
function anotherZone(instant: string, hostZone: string, language: TLanguage): string {
  const inHost = formatDate(instant, language, { timeZone: hostZone });
  return formatDate(instant, language, { timeZone: 'Pacific/Pago_Pago' }) !== inHost
    ? 'Pacific/Pago_Pago'
    : 'Pacific/Kiritimati';
}

describe.each(LANGUAGES)('the suppression list in another time zone (%s)', (language: TLanguage) => {
  it("shows when an entry was made in the host's time zone, in a browser in another, and names the zone", async () => {
    const t = TEXTS[language];
    const email = uniqueEmail(`zone-${language}`);
    const added = await apiCall<{ id: string; createdAt: string }>('POST', '/v1/suppressions', {
      token: admin,
      body: { email },
    });
    expect(added.status, JSON.stringify(added.data)).toBe(200);
    const listed = await apiCall<{ timeZone: string }>('GET', `/v1/suppressions?search=${encodeURIComponent(email)}`, {
      token: admin,
    });
    const hostZone = listed.data.timeZone;
    expect(hostZone).toBe('Asia/Tokyo');
    const { createdAt } = added.data;
    const browserZone = anotherZone(createdAt, hostZone, language);
    const inBrowser = [formatDate(createdAt, language, { timeZone: browserZone })];
    const inHost = [
      formatDate(createdAt, language, { timeZone: hostZone }),
      formatTime(createdAt, language, { timeZone: hostZone }),
    ];
    expect(inBrowser[0]).not.toBe(inHost[0]);

    const { context, page } = await openPage(browser, language, { timeZone: browserZone });
    try {
      await signIn(page, language, ADMIN);
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      await page.goto('/suppression-list');
      await page.getByPlaceholder(t.customers.suppressions.search).fill(email);
      await page.getByPlaceholder(t.customers.suppressions.search).press('Enter');
      const row = page.locator(`[data-testid="suppression-row"][data-email="${email}"]`);
      await row.waitFor();
      const text = (await row.textContent()) ?? '';
      for (const part of inHost) expect(text).toContain(part);
      for (const part of inBrowser) expect(text).not.toContain(part);
      expect(await page.getByTestId('suppression-time-zone').textContent()).toBe(
        t.customers.suppressions.time_zone_note.replace('{{timeZone}}', hostZone),
      );
    } finally {
      await context.close();
      await apiCall('POST', `/v1/suppressions/${added.data.id}/lift`, { token: admin, body: {} });
    }
  });
});

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken, uniqueEmail } from '../support/api';
import {
  LANGUAGES,
  launchBrowser,
  newContext,
  openPage,
  screenshot,
  signIn,
  TEXTS,
  type TLanguage,
} from '../support/browser';
import { paragraphContent, quietHoursAway, tokyoHour } from '../support/campaign-fixture';
import { dkimResult, outboxOf, type TOutboxMail } from '../support/mail';

// The acting host: the brand さくらホテルズ, whose demo domain is verified and whose sender is set.
const ADMIN = 'brand.admin@demo.test';
const VIEWER = 'hotel.viewer@demo.test';
const GRAND = 'grand@demo.test';
/** The button's address in the mail: the browser is answered for it here, it never leaves the machine. */
const LANDING = 'https://landing.example.jp';
/** A guest's desktop browser (headless Chromium's own agent reads as a scanner, a machine open). */
const GUEST_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let browser: Browser;
let grand: string;
let admin: string;
let restoreSettings: (() => Promise<void>) | null = null;
/** A time ("HH:30", Tokyo) inside the quiet hours beforeAll set. */
let insideQuietHours: string;

beforeAll(async () => {
  browser = await launchBrowser();
  grand = await apiToken(GRAND);
  admin = await apiToken(ADMIN);
  // Quiet hours a few hours away, so "send now" sends now whatever the time of the run.
  const quiet = await quietHoursAway(admin);
  restoreSettings = quiet.restore;
  insideQuietHours = quiet.inside;
});
afterAll(async () => {
  await restoreSettings?.();
  await browser?.close();
});

const outbox = (to: string) => outboxOf(grand, to, 20);

async function waitForMail(to: string, count: number, timeoutMs = 90_000): Promise<TOutboxMail[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mails = await outbox(to);
    if (mails.length >= count) return mails;
    if (Date.now() > until) throw new Error(`${to} received ${mails.length} mail(s), expected ${count}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

interface TArranged {
  run: string;
  segmentName: string;
  templateName: string;
  leaving: { id: string; email: string };
  staying: { id: string; email: string };
  tester: string;
}

/** Two guests of this run in a static segment, and a template with a button, through the API. */
async function arrange(language: TLanguage): Promise<TArranged> {
  const hotels = await apiCall<{ items: { id: string; name: string }[] }>('GET', '/v1/hotels?pageSize=100', {
    token: admin,
  });
  const hotelId = hotels.data.items.find((h) => h.name === 'さくらホテル 新宿')!.id;
  const run = `${Date.now().toString(36)}${language}`;
  const guest = async (first: string) => {
    const email = uniqueEmail(`cmp-${first.toLowerCase()}`);
    const created = await apiCall<{ id: string }>('POST', '/v1/customers', {
      token: admin,
      body: {
        lastName: `Camp${run}`,
        firstName: first,
        email,
        phone: `080${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
        address: '東京都新宿区西新宿2-2-2',
        hotelId,
      },
    });
    expect(created.status, JSON.stringify(created.data)).toBe(200);
    return { id: created.data.id, email };
  };
  const leaving = await guest('Leaving');
  const staying = await guest('Staying');
  const segmentName = `夏の常連 ${run}`;
  const segment = await apiCall<{ id: string }>('POST', '/v1/segments', {
    token: admin,
    body: { name: segmentName, type: 'static' },
  });
  expect(segment.status).toBe(200);
  const added = await apiCall('POST', `/v1/segments/${segment.data.id}/members`, {
    token: admin,
    body: { customerIds: [leaving.id, staying.id] },
  });
  expect(added.status).toBe(200);
  const templateName = `夏のご案内 ${run}`;
  const content = (subject: string, text: string, label: string) =>
    paragraphContent(text, {
      subject,
      after: [{ id: 'b', type: 'button', label, href: `${LANDING}/summer?run=${run}` }],
    });
  const template = await apiCall('POST', '/v1/templates', {
    token: admin,
    body: {
      name: templateName,
      defaultLanguage: 'ja',
      contents: {
        ja: content('夏のご案内', '夏の特別プランのご案内です。', 'プランを見る'),
        en: content('Summer news', 'Our summer plans are here.', 'See the plans'),
      },
    },
  });
  expect(template.status).toBe(200);
  return { run, segmentName, templateName, leaving, staying, tester: uniqueEmail('cmp-test') };
}

async function signedIn(language: TLanguage, email = ADMIN): Promise<Page> {
  const { page } = await openPage(browser, language);
  await signIn(page, language, email);
  await page.waitForURL((url) => url.pathname === '/');
  return page;
}

/** Picks `name` in a Mantine Select or MultiSelect found by its test id. */
async function pick(page: Page, testId: string, name: string) {
  const input = page.getByTestId(testId);
  await input.click();
  await input.fill(name);
  await page.getByRole('option', { name, exact: true }).click();
}

const statValue = (page: Page, stat: string) => page.getByTestId(`stat-${stat}-value`);

describe.each(LANGUAGES)('campaigns (%s)', (language) => {
  const t = TEXTS[language];
  const c = t.campaign;
  let arranged: TArranged;
  let campaignId = '';
  let campaignName = '';

  beforeAll(async () => {
    arranged = await arrange(language);
    campaignName = `夏キャンペーン ${arranged.run}`;
  });

  it('creates a campaign in five steps, tests it, sends it now and the guests receive it signed', async () => {
    const page = await signedIn(language);
    await page.getByRole('button', { name: t.nav.email_marketing, exact: true }).click();
    await page.getByRole('link', { name: t.nav.campaign, exact: true }).click();
    await page.waitForURL('**/campaign');
    await page.getByRole('link', { name: c.actions.create }).click();
    await page.waitForURL('**/campaign/new');

    // Details: nothing typed yet, so Next says what is missing; the sender comes from the settings.
    await page.getByTestId('campaign-next').click();
    await page.getByText(t.validation.required).first().waitFor();
    await page.locator('input[name="name"]').fill(campaignName);
    await page.locator('input[name="subject"]').fill(language === 'ja' ? '夏の特別プラン' : 'Summer plans');
    await page.locator('input[name="preHeader"]').fill(language === 'ja' ? '今だけのご案内' : 'For a short time');
    expect(await page.getByTestId('campaign-sender').textContent()).toContain('info@sakura-hotels.example.jp');
    await page.getByTestId('campaign-next').click();

    // Recipients: the server counts the audience, each guest once.
    await pick(page, 'campaign-segments', arranged.segmentName);
    await page.locator('[data-testid="audience-recipients"]', { hasText: '2' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('audience-unsubscribed').textContent()).toContain('0');
    await screenshot(page, `campaign-recipients-${language}`);

    // Back to the details by the step bar, not Next: the draft is saved on the way, so after a
    // reload (the address names the campaign now) both steps still hold what was chosen.
    await page.getByTestId('campaign-step-details').click();
    await page.locator('input[name="name"]').waitFor();
    await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor({ timeout: 15_000 });
    await page.waitForURL(/\/campaign\/[0-9a-f-]{36}\/edit$/);
    await page.reload();
    expect(await page.locator('input[name="name"]').inputValue()).toBe(campaignName);
    await page.getByTestId('campaign-next').click();
    await page.locator('[data-testid="audience-recipients"]', { hasText: '2' }).waitFor({ timeout: 20_000 });

    // A change, and the link back to the list at once: the editor saves it first and leaves,
    // without asking (nothing is lost); back in the editor, the server's copy has it.
    await page.getByTestId('campaign-back').click();
    const preHeader = language === 'ja' ? '今だけの特別なご案内' : 'Only for a short time';
    await page.locator('input[name="preHeader"]').fill(preHeader);
    await page.getByRole('link', { name: c.actions.back_to_list }).click();
    await page.waitForURL('**/campaign');
    expect(await page.getByRole('dialog').getByText(t.ui.leave.message).count()).toBe(0);
    await page.goBack();
    await page.waitForURL(/\/edit$/);
    await page.reload();
    await page.locator('input[name="preHeader"]').waitFor();
    expect(await page.locator('input[name="preHeader"]').inputValue()).toBe(preHeader);
    await page.getByTestId('campaign-next').click();
    await page.locator('[data-testid="audience-recipients"]', { hasText: '2' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('campaign-next').click();

    // Content: a saved template, previewed as the server renders it.
    await pick(page, 'campaign-template', arranged.templateName);
    const preview = page.frameLocator('[data-testid="campaign-preview"]');
    await preview.getByText('夏の特別プランのご案内です。').waitFor({ timeout: 20_000 });
    await page.getByTestId('campaign-next').click();

    // Schedule: a time in the brand's quiet hours is pointed out; then "now".
    await page.getByTestId('campaign-schedule-kind').getByText(c.schedule.later, { exact: true }).click();
    const tomorrow = new Date(Date.now() + 24 * 3600_000 + 9 * 3600_000).toISOString().slice(0, 10);
    await page.locator('input[name="date"]').fill(tomorrow);
    await page.locator('input[name="time"]').fill(insideQuietHours);
    await page.getByTestId('campaign-quiet-hours').waitFor({ timeout: 15_000 });
    // The warning leads to the setting.
    expect(
      await page
        .getByTestId('campaign-quiet-hours')
        .getByRole('link', { name: c.schedule.quiet_hours_link })
        .getAttribute('href'),
    ).toBe('/settings#quiet-hours');
    // Said in the zone chosen (the browser here runs in UTC), not the browser's.
    expect(await page.getByTestId('campaign-send-at').textContent()).toContain(
      `${tomorrow.slice(8, 10).replace(/^0/, '')}`,
    );
    expect(await page.getByTestId('campaign-send-at').textContent()).toContain('(Asia/Tokyo)');
    await screenshot(page, `campaign-quiet-hours-${language}`);
    await page.getByTestId('campaign-schedule-kind').getByText(c.schedule.now, { exact: true }).click();
    await page.getByTestId('campaign-quiet-hours').waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByTestId('campaign-next').click();

    // Review: a test to the user's own address (offered) and one more reaches the outbox.
    const summary = page.getByTestId('campaign-summary');
    await summary.getByText(arranged.segmentName).waitFor();
    const emails = page.getByTestId('campaign-test-emails');
    await emails.fill(arranged.tester);
    await emails.press('Enter');
    await page.getByTestId('campaign-test-submit').click();
    await page.getByTestId('snackbar').getByText(c.review.test_sent_other.replace('{{count}}', '2')).waitFor();
    await waitForMail(arranged.tester, 1);
    await screenshot(page, `campaign-review-${language}`);

    // The confirmation says how many guests will receive it.
    await page.getByTestId('campaign-send-now').click();
    await page
      .getByRole('dialog')
      .getByText(c.confirm.send_now_count.replace('{{name}}', campaignName).replace('{{guests}}', '2'))
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: c.actions.send_now }).click();
    await page.waitForURL(/\/campaign\/[0-9a-f-]{36}$/);
    campaignId = new URL(page.url()).pathname.split('/').pop()!;
    await page.locator('[data-testid="campaign-status"][data-status="sent"]').waitFor({ timeout: 90_000 });
    await statValue(page, 'sent')
      .and(page.getByText('2', { exact: true }))
      .waitFor({ timeout: 30_000 });

    // Each guest received it once, DKIM-signed by the brand's domain, with one-click unsubscribe.
    const [mail] = await waitForMail(arranged.leaving.email, 1);
    expect((await outbox(arranged.staying.email)).length).toBe(1);
    const header = (key: string) => mail!.headers.find((h) => h.key.toLowerCase() === key)?.value ?? '';
    expect(header('list-unsubscribe')).toMatch(/<https?:\/\/[^>]+>/);
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const dkim = await dkimResult(grand, mail!);
    expect(dkim?.status.result).toBe('pass');
    expect(dkim?.signingDomain).toBe('sakura-hotels.example.jp');
    await page.context().close();
  }, 240_000);

  it('counts an open and a click made in the browser, shows them, and the footer link unsubscribes the guest', async () => {
    const page = await signedIn(language);
    const [mail] = await outbox(arranged.leaving.email);
    const html = mail!.html ?? '';
    expect(html).toContain('/t/o/');

    // The guest, in a browser of their own, opens the mail (its pixel loads) and follows the button.
    const guest = await newContext(browser, { userAgent: GUEST_AGENT });
    // The tracked link answers with a redirect to the button's address, which is answered here
    // (a redirect's second hop cannot be intercepted, and the address is not on this machine).
    let redirectedTo = '';
    await guest.route('**/t/c/**', async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      expect(response.status()).toBe(302);
      redirectedTo = response.headers().location ?? '';
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Summer</h1>' });
    });
    const reader = await guest.newPage();
    const pixel = reader.waitForResponse((response) => response.url().includes('/t/o/'));
    await reader.setContent(html, { waitUntil: 'load' });
    expect((await pixel).status()).toBe(200);
    // The mail's links open a new tab.
    const [tab] = await Promise.all([guest.waitForEvent('page'), reader.locator('a[href*="/t/c/"]').first().click()]);
    await tab.getByText('Summer').waitFor();
    expect(redirectedTo).toBe(`${LANDING}/summer?run=${arranged.run}`);
    // Apple Mail's privacy proxy fetches the same pixel: a machine open, counted apart.
    const pixelUrl = html.match(/src="([^"]*\/t\/o\/[^"]*)"/)?.[1]?.replace(/&amp;/g, '&');
    expect((await fetch(pixelUrl!, { headers: { 'user-agent': 'Mozilla/5.0' } })).status).toBe(200);

    await page.goto(`/campaign/${campaignId}`);
    await statValue(page, 'opens')
      .and(page.getByText('1', { exact: true }))
      .waitFor({ timeout: 45_000 });
    await statValue(page, 'clicks')
      .and(page.getByText('1', { exact: true }))
      .waitFor({ timeout: 45_000 });
    expect(await statValue(page, 'unopened').textContent()).toBe('1');
    await statValue(page, 'machine-opens')
      .and(page.getByText('1', { exact: true }))
      .waitFor({ timeout: 45_000 });
    expect(await page.getByTestId('stat-opens').textContent()).toContain(c.statistics.total.replace('{{value}}', '1'));
    await page.getByTestId('campaign-link').first().waitFor();
    expect(await page.getByTestId('campaign-link').first().getAttribute('data-url')).toBe(
      `${LANDING}/summer?run=${arranged.run}`,
    );
    const row = page.locator(`[data-testid="campaign-recipient"][data-email="${arranged.leaving.email}"]`);
    await row.locator('[data-kind="click"]').waitFor({ timeout: 30_000 });
    await row.locator('[data-kind="open"]').waitFor();
    await page.getByTestId('campaign-chart').or(page.locator('.recharts-wrapper')).first().waitFor({ timeout: 20_000 });
    await screenshot(page, `campaign-statistics-${language}`);

    // The footer's link opens the public page, which unsubscribes the guest.
    const footer = html.match(/href="([^"]*\/unsubscribe\?[^"]*)"/)?.[1]?.replace(/&amp;/g, '&');
    expect(footer).toBeTruthy();
    await reader.goto(footer!);
    await reader.locator('[data-testid="unsubscribe-page"][data-state="unsubscribed"]').waitFor({ timeout: 20_000 });
    // In the guest's language (no country: the brand's default, Japanese), with the brand's message.
    expect(await reader.getByTestId('unsubscribe-message').textContent()).toContain('メール配信を停止しました');
    await guest.close();

    await page.goto(`/customer-list/${arranged.leaving.id}`);
    await page
      .getByTestId('customer-info')
      .getByTestId('email-status')
      .getByText(t.customers.email_status.unsubscribed, { exact: true })
      .waitFor();
    await page.context().close();
  }, 180_000);

  it('skips the unsubscribed guest in the next campaign', async () => {
    const page = await signedIn(language);
    await page.goto('/campaign');
    const row = page.locator(`[data-testid="campaign-row"][data-name="${campaignName}"]`);
    await row.getByTestId('campaign-menu').click();
    await page.getByTestId('campaign-action-duplicate').click();
    const copyRow = page.locator(`[data-testid="campaign-row"]:not([data-name="${campaignName}"])`, {
      hasText: campaignName,
    });
    await copyRow.and(page.locator('[data-status="draft"]')).waitFor();
    await copyRow.getByTestId('campaign-menu').click();
    await page.getByTestId('campaign-action-send_now').click();
    await page.getByRole('dialog').getByRole('button', { name: c.actions.send_now }).click();
    await page.getByTestId('snackbar').getByText(c.done.sending).waitFor();
    await copyRow.and(page.locator('[data-status="sent"]')).waitFor({ timeout: 90_000 });

    await waitForMail(arranged.staying.email, 2);
    expect((await outbox(arranged.leaving.email)).length).toBe(1);
    await page.context().close();
  }, 240_000);

  it('keeps a time typed in a draft, schedules the copy for it, takes it back to draft and deletes it, each after a confirmation', async () => {
    const page = await signedIn(language);
    await page.goto('/campaign');
    const original = page.locator(`[data-testid="campaign-row"][data-name="${campaignName}"]`);
    await original.getByTestId('campaign-menu').click();
    await page.getByTestId('campaign-action-duplicate').click();
    await page.getByTestId('snackbar').getByText(c.done.duplicated.split('“')[0]!.split('「')[0]!).first().waitFor();
    const copy = page
      .locator(`[data-testid="campaign-row"][data-status="draft"]:not([data-name="${campaignName}"])`, {
        hasText: campaignName,
      })
      .first();
    const copyName = (await copy.getAttribute('data-name'))!;
    // Named in the language the console is read in, whatever the profile's (Japanese here).
    expect(copyName).toBe(language === 'en' ? `${campaignName} (copy)` : `${campaignName}（コピー）`);
    const row = page.locator(`[data-testid="campaign-row"][data-id="${await copy.getAttribute('data-id')}"]`);
    await row.getByTestId('campaign-menu').click();
    await page.getByTestId('campaign-action-edit').click();
    await page.waitForURL(/\/campaign\/[0-9a-f-]{36}\/edit$/);

    // Every step is filled in the copy: straight to the schedule. A time typed, then "Save as draft":
    // the copy stays a draft, not scheduled, and keeps the time for when it is opened again.
    await page.getByTestId('campaign-step-schedule').click();
    await page.getByTestId('campaign-schedule-kind').getByText(c.schedule.later, { exact: true }).click();
    const tomorrow = new Date(Date.now() + 33 * 3600_000).toISOString().slice(0, 10);
    const time = `${tokyoHour(1).slice(0, 2)}:15`;
    await page.locator('input[name="date"]').fill(tomorrow);
    await page.locator('input[name="time"]').fill(time);
    await page.getByTestId('campaign-save-draft').click();
    await page.getByTestId('snackbar').getByText(c.done.saved).waitFor();
    await page.waitForURL('**/campaign');
    await row.and(page.locator('[data-status="draft"]')).waitFor();
    expect(await row.getByTestId('campaign-send-time').textContent()).toBe(c.list.not_scheduled);
    await row.getByTestId('campaign-menu').click();
    await page.getByTestId('campaign-action-edit').click();
    await page.waitForURL(/\/campaign\/[0-9a-f-]{36}\/edit$/);
    await page.getByTestId('campaign-step-schedule').click();
    expect(await page.locator('input[name="date"]').inputValue()).toBe(tomorrow);
    expect(await page.locator('input[name="time"]').inputValue()).toBe(time);
    await page.getByTestId('campaign-next').click();
    expect(await page.getByTestId('campaign-summary').textContent()).toContain('(Asia/Tokyo)');
    expect(await page.getByTestId('campaign-send-now').count()).toBe(0);
    await page.getByTestId('campaign-schedule').click();
    await page.getByTestId('snackbar').getByText(c.done.scheduled).waitFor();
    await page.waitForURL('**/campaign');
    await row.and(page.locator('[data-status="scheduled"]')).waitFor();

    // Scheduled: edit schedule, save as draft and cancel are offered; save as draft asks first.
    await row.getByTestId('campaign-menu').click();
    for (const action of ['edit_schedule', 'save_as_draft', 'cancel', 'send_now', 'delete']) {
      await page.getByTestId(`campaign-action-${action}`).waitFor();
    }
    await page.getByTestId('campaign-action-save_as_draft').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(c.confirm.save_as_draft.replace('{{name}}', copyName)).waitFor();
    await dialog.getByRole('button', { name: c.actions.save_as_draft }).click();
    await row.and(page.locator('[data-status="draft"]')).waitFor();
    // Taken back, it is not scheduled any more: no send time in the list.
    expect(await row.getByTestId('campaign-send-time').textContent()).toBe(c.list.not_scheduled);

    await row.getByTestId('campaign-menu').click();
    expect(await page.getByTestId('campaign-action-cancel').count()).toBe(0);
    await page.getByTestId('campaign-action-delete').click();
    await dialog.getByRole('button', { name: c.actions.delete }).click();
    await row.waitFor({ state: 'detached' });
    await page.context().close();
  }, 120_000);

  it('gives a viewer the report only: no create, no change, statistics at most', async () => {
    // A draft of the viewer's hotel, made by its admin.
    const hotelAdmin = await apiToken('hotel.admin@demo.test');
    const draftName = `ホテルの下書き ${arranged.run}`;
    const draft = await apiCall<{ id: string }>('POST', '/v1/campaigns', {
      token: hotelAdmin,
      body: { name: draftName },
    });
    expect(draft.status).toBe(200);

    const page = await signedIn(language, VIEWER);
    await page.goto('/campaign');
    const row = page.locator(`[data-testid="campaign-row"][data-name="${draftName}"]`);
    await row.waitFor();
    expect(await page.getByRole('link', { name: c.actions.create }).count()).toBe(0);
    // A draft offers a viewer nothing: no menu, and its name opens no editor.
    expect(await row.getByTestId('campaign-menu').count()).toBe(0);
    expect(await row.getByRole('link').count()).toBe(0);
    const items = page.locator('[data-testid^="campaign-action-"]');
    for (const menu of await page.getByTestId('campaign-menu').all()) {
      await menu.click();
      await items.first().waitFor();
      const offered = await items.evaluateAll((found) => found.map((i) => i.getAttribute('data-testid')));
      expect(offered).toEqual(['campaign-action-statistics']);
      // Closed before the next row's menu: an open menu's dropdown lies over the rows below it.
      await page.keyboard.press('Escape');
      if (
        !(await items
          .first()
          .waitFor({ state: 'hidden', timeout: 3_000 })
          .then(
            () => true,
            () => false,
          ))
      ) {
        await menu.click();
        await items.first().waitFor({ state: 'hidden' });
      }
    }
    // Its report page says so, and offers no action.
    await page.goto(`/campaign/${draft.data.id}`);
    await page.getByTestId('campaign-report-only').waitFor();
    await page.getByTestId('campaign-not-sent').waitFor();
    expect(await page.getByRole('button', { name: c.actions.delete }).count()).toBe(0);
    expect(await page.getByRole('button', { name: c.actions.send_now }).count()).toBe(0);
    // The address of the create wizard leads to the console's no-access page, not to the wizard.
    await page.goto('/campaign/new');
    await page.getByTestId('area-forbidden').getByText(t.errors.forbidden).waitFor();
    expect(await page.getByTestId('campaign-next').count()).toBe(0);
    await page.context().close();
  });
});

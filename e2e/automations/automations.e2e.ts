import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS } from '../support/browser';
import { dkimResult, outboxOf } from '../support/mail';
import serverEn from '../../apps/server/src/i18n/en.json' with { type: 'json' };
import serverJa from '../../apps/server/src/i18n/ja.json' with { type: 'json' };

// The built-in presets' texts are the server's, in the console's language.
const PRESET_TEXTS = { ja: serverJa.scenario_presets, en: serverEn.scenario_presets };

// The brand's admin: the demo's synced bookings belong to the brand's hotels.
const BRAND_ADMIN = 'brand.admin@demo.test';

interface TJourney {
  customerId: string;
  customerName: string;
  path: { nodeId: string; event: string }[];
}

let browser: Browser;
let admin: string;
let grand: string;
let ownSettings: Record<string, unknown> | null = null;

const tokyoHour = (offsetHours: number) =>
  `${String((new Date().getUTCHours() + 9 + offsetHours + 48) % 24).padStart(2, '0')}:00`;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiToken(BRAND_ADMIN);
  grand = await apiToken('grand@demo.test');
  // Scenario mails go through the campaigns' send path, in real time: the brand's quiet hours
  // (21:00-08:00) would hold them in a run made in the evening, and the demo's guests may be at the
  // frequency cap already. This run moves both out of the way, and puts them back afterwards.
  const current = await apiCall<{ own: Record<string, unknown> }>('GET', '/v1/sending/settings', { token: admin });
  ownSettings = current.data.own;
  const moved = await apiCall('PUT', '/v1/sending/settings', {
    token: admin,
    body: {
      ...ownSettings,
      quietHoursStart: tokyoHour(4),
      quietHoursEnd: tokyoHour(6),
      frequencyCapCount: 100,
      frequencyCapDays: 1,
    },
  });
  expect(moved.status).toBe(200);
  // The demo's own campaign goes out a minute or two after the product starts (once the first sync
  // brought its guests); the scenario's mails would queue behind it. Let it finish first.
  const busy = async () => {
    const list = await apiCall<{ items: { status: string; sendAt: string | null }[] }>(
      'GET',
      '/v1/campaigns?pageSize=100',
      { token: admin },
    );
    return list.data.items.some(
      (c) => c.status === 'pending' || (c.status === 'scheduled' && (!c.sendAt || Date.parse(c.sendAt) <= Date.now())),
    );
  };
  await until(async () => ((await busy()) ? null : true), 200_000);
}, 240_000);
afterAll(async () => {
  if (ownSettings) await apiCall('PUT', '/v1/sending/settings', { token: admin, body: ownSettings });
  await browser?.close();
});

/** Drags a connection from an exit of one step to the entry of another, as a user does. */
async function connect(page: Page, source: string, handle: string, target: string): Promise<void> {
  const from = page.locator(`.react-flow__handle.source[data-nodeid="${source}"][data-handleid="${handle}"]`);
  const to = page.locator(`.react-flow__handle.target[data-nodeid="${target}"]`);
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

/** Picks an option of a Mantine select by its visible name, or the first one. */
async function choose(page: Page, testId: string, name?: string): Promise<void> {
  await page.getByTestId(testId).click();
  // Only the open list: other selects keep their options in the page, hidden.
  const options = page.locator('[role="option"]:visible');
  const option = name ? options.filter({ hasText: name }).first() : options.first();
  await option.click();
}

/** The first non-null answer of `check`, asked every second until `timeoutMs`. */
async function until<T>(check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

const nodeIds = (page: Page) =>
  page.getByTestId('scenario-node').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-id') ?? ''));

describe.each(LANGUAGES)('automations (%s)', (language) => {
  const t = TEXTS[language];
  const a = t.automations;
  const preArrival = PRESET_TEXTS[language].pre_arrival.name;
  const subject = `e2e ${language} ${Date.now().toString(36)}: see you soon`;

  it('creates a pre-arrival scenario from the preset, edits it in the graph, runs it, moves the clock, sees the counts and the summary, and stops it with the typed sentence', async () => {
    const { context, page } = await openPage(browser, language);
    try {
      await signIn(page, language, BRAND_ADMIN);
      await page.waitForURL((url) => url.pathname === '/');

      // The sidebar's Automations group leads to the presets.
      await page.getByRole('button', { name: t.nav.automations, exact: true }).click();
      await page.getByRole('link', { name: t.nav.preset }).click();
      await page.waitForURL('**/automations/preset');
      const card = page.locator('[data-testid="preset-card"][data-preset="pre_arrival"]');
      await card.getByText(preArrival).waitFor();
      await card.getByTestId('preset-use').click();
      await page.waitForURL('**/automations/editor?id=*');
      const scenarioId = new URL(page.url()).searchParams.get('id')!;
      await page.getByTestId('scenario-editor').waitFor();
      expect(await page.getByTestId('scenario-editor').getAttribute('data-status')).toBe('draft');

      // The preset's email still needs its template and subject: the contract's check says so on the node.
      const email = page.locator('[data-testid="scenario-node"][data-node-type="email"]');
      await expect.poll(() => email.getAttribute('data-faults')).toContain('email_incomplete');
      await email.getByText(t.errors.email_incomplete).waitFor();

      // Reloaded (the editor has no shell around it), it still shows its texts, never catalogue keys.
      await page.reload();
      await page.getByTestId('scenario-editor').waitFor();
      await email.getByText(t.errors.email_incomplete).waitFor();
      expect(await page.getByTestId('scenario-editor').textContent()).not.toMatch(/errors\.|automations\./);
      // A refused run says why, in the user's language: the steps to fix, not "An error has occurred".
      await page.getByTestId('run').click();
      const refused = page.getByRole('dialog');
      await refused.getByRole('button', { name: a.actions.run, exact: true }).click();
      await refused.getByTestId('scenario-refusal').getByText(t.errors.scenario_invalid).waitFor();
      expect(await refused.getByTestId('scenario-refusal').textContent()).not.toContain(t.errors.general);
      await refused.getByRole('button', { name: a.confirm.keep }).click();
      await refused.waitFor({ state: 'detached' });

      // The booking trigger's panel shows the daily sync notice.
      await page.locator('[data-testid="scenario-node"][data-node-type="trigger"]').click();
      await page.getByTestId('sync-notice').getByText(a.trigger.sync_notice).waitFor();
      // ... and the rule for a booking read late (after its moment): next send time, before check-in.
      expect(await page.getByTestId('late-rule').textContent()).toBe(a.trigger.late_rule);
      expect(await page.getByTestId('trigger-days').inputValue()).toBe('3');

      // Edit the graph: a one-hour delay goes between the trigger and the email.
      const before = await nodeIds(page);
      await page.getByTestId('palette-delay').click();
      // Leaving at once, before the change is saved, saves it first: nothing asks (nothing is lost),
      // and the editor opened again has the new step.
      await page.getByRole('link', { name: a.editor.back }).click();
      await page.waitForURL((url) => url.pathname === '/automations/scenario', { timeout: 15_000 });
      expect(await page.getByText(t.ui.leave.message).count()).toBe(0);
      await page.goto(`/automations/editor?id=${scenarioId}`);
      await page.getByTestId('scenario-editor').waitFor();
      await page.locator('[data-testid="save-status"][data-state="saved"]').waitFor({ timeout: 15_000 });
      await expect.poll(async () => (await nodeIds(page)).length).toBe(before.length + 1);
      const delayId = (await nodeIds(page)).find((id) => !before.includes(id))!;
      await page.locator(`[data-testid="scenario-node"][data-node-id="${delayId}"]`).click();
      await page.getByTestId('delay-amount').fill('1');
      await page.getByTestId('delay-unit').selectOption('hours');
      await page.getByTestId('arrange').click();
      const delay = page.locator(`[data-testid="scenario-node"][data-node-id="${delayId}"]`);
      // Nothing leads to the new step yet.
      await delay.getByText(t.errors.orphan_node).waitFor();
      // The trigger's exit is taken: the editor says so instead of drawing a second edge.
      await connect(page, 'trigger', 'next', delayId);
      await page.getByTestId('graph-faults').getByText(a.editor.refusal.outlet_taken).waitFor();
      // Delete the trigger's connection, then connect trigger → delay → email.
      await page.locator('[data-testid="rf__edge-trigger-email"] .react-flow__edge-interaction').click({ force: true });
      await page.keyboard.press('Delete');
      await expect.poll(() => page.locator('[data-testid="rf__edge-trigger-email"]').count()).toBe(0);
      await connect(page, 'trigger', 'next', delayId);
      await connect(page, delayId, 'next', 'email');
      await page.getByTestId('arrange').click();
      await expect.poll(() => delay.getAttribute('data-faults')).toBe('');

      // The email's template, subject and sender.
      await email.click();
      await choose(page, 'email-template');
      await page.getByTestId('email-subject').fill(subject);
      // The preset leaves the sender open: the settings' one sender is chosen for it.
      expect(await page.getByTestId('email-sender').inputValue()).toContain('@');
      await expect.poll(() => email.getAttribute('data-faults')).toBe('');
      await page.getByTestId('graph-ok').waitFor();
      // Its words stay inside the palette (an upper-case badge ran 30 px onto the canvas in English).
      const palette = await page.getByTestId('palette').boundingBox();
      const ready = await page.getByTestId('graph-ok').evaluate((el) => ({
        right: el.getBoundingClientRect().right,
        overflow: el.scrollWidth - el.clientWidth,
      }));
      expect(ready.right).toBeLessThanOrEqual(palette!.x + palette!.width);
      expect(ready.overflow).toBe(0);

      // Finish and run: saved, then run after the confirmation.
      await page.getByTestId('run').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(a.confirm.run_title).waitFor();
      await dialog.getByRole('button', { name: a.actions.run, exact: true }).click();
      await page.getByTestId('snackbar').getByText(a.done.run.replace('{{name}}', preArrival)).waitFor();
      // The editor reads the scenario again after the run (a second or more on a loaded machine).
      await expect
        .poll(() => page.getByTestId('scenario-editor').getAttribute('data-status'), { timeout: 15_000 })
        .toBe('running');
      // A running scenario cannot be changed.
      await page.getByTestId('editor-read-only').waitFor();
      expect(await page.getByTestId('palette').count()).toBe(0);
      await screenshot(page, `automations-editor-running-${language}`);

      // Move the engine's clock on by 10 days, a day at a time, as a running engine would see them:
      // guests whose stay's moment comes in that time enter the journey and wait at the one-hour
      // delay, and their mail is queued and sent before they arrive (a guest who would arrive before
      // the engine looked is skipped, never mailed after check-in).
      let steps = 0;
      for (let day = 0; day < 10; day += 1) {
        const moved = await apiCall<{ steps: number }>('POST', '/v1/dev/scenario-clock', {
          token: grand,
          body: { minutes: 24 * 60 },
        });
        expect(moved.status).toBe(200);
        steps += moved.data.steps;
      }
      expect(steps).toBeGreaterThan(0);
      const later = await apiCall<{ steps: number }>('POST', '/v1/dev/scenario-clock', {
        token: grand,
        body: { minutes: 120 },
      });
      expect(later.status).toBe(200);
      // The simulator's guests are whoever its world holds on the day, about half of them without the
      // newsletter opt-in, so a window can hold only guests the email step skips (a run at 14:00 in
      // Tokyo on 2026-12-01 found seven, all opted out, and mailed nobody). The clock moves on a day
      // at a time, at most 30, until the step has a mail to send.
      const mailsToSend = async () => {
        const scenario = await apiCall<{ nodes: { nodeId: string; counts: { entered: number; skipped: number } }[] }>(
          'GET',
          `/v1/scenarios/${scenarioId}`,
          { token: admin },
        );
        const email = scenario.data.nodes.find((n) => n.nodeId === 'email');
        return email ? email.counts.entered - email.counts.skipped : 0;
      };
      for (let extra = 0; extra < 30 && (await mailsToSend()) === 0; extra += 1) {
        const moved = await apiCall('POST', '/v1/dev/scenario-clock', { token: grand, body: { minutes: 24 * 60 } });
        expect(moved.status).toBe(200);
      }
      expect(await mailsToSend()).toBeGreaterThan(0);

      // A guest whose journey shows the mail sent finds it in the outbox: once, to their address,
      // DKIM-signed by the brand's domain, with one-click unsubscribe.
      const sent = await until(async () => {
        const journeys = await apiCall<{ items: TJourney[] }>(
          'GET',
          `/v1/scenarios/${scenarioId}/journeys?state=done&pageSize=100`,
          { token: admin },
        );
        return journeys.data.items.find((j) => j.path.some((p) => p.nodeId === 'email' && p.event === 'sent')) ?? null;
      }, 120_000);
      const guest = await apiCall<{ email: string }>('GET', `/v1/customers/${sent.customerId}`, { token: admin });
      const mails = (await outboxOf(grand, guest.data.email)).filter((m) => m.subject === subject);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.to).toEqual([guest.data.email]);
      const header = (key: string) => mail.headers.find((h) => h.key.toLowerCase() === key)?.value ?? '';
      expect(header('list-unsubscribe')).toMatch(/<https?:\/\/[^>]+>/);
      expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const dkim = await dkimResult(grand, mail);
      expect(dkim?.status.result).toBe('pass');
      expect(dkim?.signingDomain).toBe('sakura-hotels.example.jp');

      // The trigger shows its live counts on the canvas (from the summary endpoint).
      await page.reload();
      const entered = page.locator('[data-testid="scenario-node"][data-node-type="trigger"] [data-count="entered"]');
      await expect
        .poll(async () => Number(await entered.getAttribute('data-value')), { timeout: 15_000 })
        .toBeGreaterThan(0);
      const guests = Number(await entered.getAttribute('data-value'));

      // The summary: the run, the counts per step, the email step's details, a guest's path.
      await page.goto(`/automations/scenario/${scenarioId}`);
      await page.getByTestId('scenario-summary').waitFor();
      await page.getByTestId('summary-runs').waitFor();
      const triggerRow = page.locator('[data-testid="summary-node"][data-node-type="trigger"] [data-count="entered"]');
      expect(Number((await triggerRow.textContent())?.replace(/\D/g, ''))).toBe(guests);
      await page.locator('[data-testid="summary-email"][data-node-id="email"]').waitFor();
      const journeys = await apiCall<{ items: { customerName: string }[] }>(
        'GET',
        `/v1/scenarios/${scenarioId}/journeys?pageSize=1`,
        { token: admin },
      );
      const someone = journeys.data.items[0]!.customerName.split(/[\s\u3000]/)[0]!;
      await page.getByTestId('path-search').fill(someone);
      await page.getByRole('button', { name: a.summary.path_find }).click();
      await page.getByTestId('journey').first().waitFor();
      expect(await page.getByTestId('journey-step').count()).toBeGreaterThanOrEqual(1);
      await screenshot(page, `automations-summary-${language}`);

      // Stop, which needs the typed sentence.
      await page.getByTestId('summary-stop').click();
      const stop = page.getByRole('dialog');
      const confirm = stop.getByRole('button', { name: a.actions.stop, exact: true });
      await stop.getByText(a.confirm.stop_title).waitFor();
      expect(await confirm.isDisabled()).toBe(true);
      await stop.getByRole('textbox').fill(a.confirm.stop_sentence);
      await confirm.click();
      await expect
        .poll(() => page.getByTestId('scenario-summary').getAttribute('data-status'), { timeout: 15_000 })
        .toBe('stopped');
    } finally {
      await context.close();
    }
  }, 240_000);
});

describe('automations as hotel staff (en)', () => {
  const t = TEXTS.en;
  const a = t.automations;

  it('finishes and runs the pre-arrival preset with the sender the campaign editor shows', async () => {
    const { context, page } = await openPage(browser, 'en');
    try {
      await signIn(page, 'en', 'hotel.staff@demo.test');
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto('/automations/preset');
      const card = page.locator('[data-testid="preset-card"][data-preset="pre_arrival"]');
      await card.getByTestId('preset-use').click();
      await page.waitForURL('**/automations/editor?id=*');
      await page.getByTestId('scenario-editor').waitFor();

      // Staff may not read the campaign email settings; the sender comes as the campaign editor's does.
      const email = page.locator('[data-testid="scenario-node"][data-node-type="email"]');
      await email.click();
      await expect.poll(() => page.getByTestId('email-sender').inputValue(), { timeout: 15_000 }).toContain('@');
      const panel = await page.getByTestId('node-panel').textContent();
      expect(panel).toContain(a.email.sender_from_settings);
      expect(panel).not.toContain(a.email.no_sender);
      await choose(page, 'email-template');
      await page.getByTestId('email-subject').fill(`e2e staff ${Date.now().toString(36)}`);
      await page.getByTestId('graph-ok').waitFor();

      await page.getByTestId('run').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(a.confirm.run_title).waitFor();
      await dialog.getByRole('button', { name: a.actions.run, exact: true }).click();
      await expect
        .poll(() => page.getByTestId('scenario-editor').getAttribute('data-status'), { timeout: 15_000 })
        .toBe('running');
      expect(await page.getByTestId('editor-read-only').textContent()).toBe(a.editor.read_only_status.running);
    } finally {
      await context.close();
    }
  }, 120_000);
});

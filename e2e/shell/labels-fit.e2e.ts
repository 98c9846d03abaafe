import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS } from '../support/browser';

/**
 * Issue 27, "labels that are cut or wrap": the main pages of a brand admin at 1366 and 1920 px in
 * both languages, with no status badge, active sidebar item or table header cut (an element that
 * clips, wider inside than it shows), no table cut by a container that hides its overflow, and no
 * date wrapping inside a table cell.
 */

const ADMIN = 'brand.admin@demo.test';
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

let browser: Browser;
let scenarioId: string;
let customerId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const token = await apiToken(ADMIN);
  const scenarios = await apiCall<{ items: { id: string }[] }>('GET', '/v1/scenarios?pageSize=1', { token });
  if (scenarios.data.items[0]) scenarioId = scenarios.data.items[0].id;
  else {
    const created = await apiCall<{ id: string }>('POST', '/v1/scenarios', {
      token,
      body: {
        name: `ラベル確認 ${Date.now().toString(36)}`,
        graph: { nodes: [{ id: 't', type: 'trigger', data: { kind: 'birthday' } }], edges: [] },
        run: { period: { kind: 'long_run' }, timeZone: 'Asia/Tokyo', sendTime: '09:00' },
      },
    });
    scenarioId = created.data.id;
  }
  // A customer with bookings, so the booking history shows its table.
  const customers = await apiCall<{ items: { id: string }[] }>('GET', '/v1/customers?pageSize=50', { token });
  for (const c of customers.data.items) {
    const bookings = await apiCall<{ items: unknown[] } | unknown[]>('GET', `/v1/customers/${c.id}/bookings`, {
      token,
    });
    const list = Array.isArray(bookings.data) ? bookings.data : bookings.data.items;
    if (list.length > 0) {
      customerId = c.id;
      break;
    }
  }
  customerId ??= customers.data.items[0]?.id as string;
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** What is cut or wraps on the page as it stands (a description of each, empty when all fits). */
function problems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const describe = (el: Element) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const clips = (el: Element) => {
      const style = getComputedStyle(el);
      return ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
    };
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null;
    // Text hidden for screen readers only (a 1 px box) is meant to be clipped.
    const cut = (el: Element) => el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1;
    const labelled = [
      ...document.querySelectorAll('.mantine-Badge-root, .mantine-Badge-root *'),
      ...document.querySelectorAll(
        'nav [data-active], nav [data-active] *, [aria-current="page"], [aria-current="page"] *',
      ),
      ...document.querySelectorAll('th, th *'),
    ];
    for (const el of labelled) if (visible(el) && clips(el) && cut(el)) found.push(`cut: ${describe(el)}`);
    // A table wider than an ancestor that hides its overflow is cut with no way to scroll to the rest.
    for (const table of document.querySelectorAll('table')) {
      if (!visible(table)) continue;
      for (let el = table.parentElement; el && el !== document.body; el = el.parentElement) {
        const style = getComputedStyle(el);
        if (['auto', 'scroll'].includes(style.overflowX)) break;
        if (['hidden', 'clip'].includes(style.overflowX) && cut(el)) {
          found.push(`table cut: ${describe(table.querySelector('th') ?? table)}`);
          break;
        }
      }
    }
    // Dates in cells: "2026年5月3日 午後3:04" or "03 May 2026, 3:04 PM", on one line.
    const date = /(\d{4}年\d{1,2}月\d{1,2}日|\d{2} [A-Z][a-z]{2} \d{4})/;
    for (const cell of document.querySelectorAll('td')) {
      if (!visible(cell)) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!date.test(node.textContent ?? '')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) found.push(`date wraps: "${(node.textContent ?? '').trim()}"`);
      }
    }
    return found;
  });
}

const PAGES: [name: string, path: () => string, ready: string][] = [
  ['dashboard', () => '/', 'main'],
  ['campaigns', () => '/campaign', 'main table, main [data-testid$="empty"]'],
  ['segments', () => '/segmentation', 'main table, main [data-testid$="empty"]'],
  ['scenarios', () => '/automations/scenario', 'main table, main [data-testid$="empty"]'],
  ['scenario-editor', () => `/automations/editor?id=${scenarioId}`, '[data-testid="scenario-editor"]'],
  ['templates', () => '/templates', 'main'],
  ['customers', () => '/customer-list', 'main table'],
  ['customer', () => `/customer-list/${customerId}`, '[data-testid="customer-info"]'],
  // The audit log is visited as the granduser (below): a brand admin has no `audit.read_audit_log`.
];

describe.each(LANGUAGES)('labels fit (%s)', (language) => {
  it.each(SIZES)(
    'at $width x $height: no badge, active sidebar item or table header cut, no date wrapped',
    async (size) => {
      const { context, page } = await openPage(browser, language);
      await page.setViewportSize(size);
      await signIn(page, language, ADMIN);
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      const all: string[] = [];
      for (const [name, path, ready] of PAGES) {
        await page.goto(path());
        await page.locator(ready).first().waitFor({ timeout: 20_000 });
        await page.waitForLoadState('networkidle');
        if (name === 'customer') {
          // The booking history, on its tab.
          await page.getByRole('tab', { name: TEXTS[language].customers.tabs.booking_history }).click();
          await page.getByTestId('booking-table').or(page.getByTestId('bookings-empty')).first().waitFor();
        }
        const found = await problems(page);
        if (found.length) await screenshot(page, `labels-${language}-${size.width}-${name}`);
        all.push(...found.map((f) => `${name}: ${f}`));
      }
      await context.close();
      // The audit log, as the granduser reads it (every host's entries).
      const grand = await openPage(browser, language);
      await grand.page.setViewportSize(size);
      await signIn(grand.page, language, 'grand@demo.test');
      await grand.page.waitForURL((url) => !url.pathname.startsWith('/login'));
      await grand.page.goto('/management/audit-log');
      await grand.page
        .getByTestId('audit-table')
        .or(grand.page.getByTestId('audit-empty'))
        .first()
        .waitFor({ timeout: 20_000 });
      await grand.page.waitForLoadState('networkidle');
      const inAudit = await problems(grand.page);
      if (inAudit.length) await screenshot(grand.page, `labels-${language}-${size.width}-audit-log`);
      all.push(...inAudit.map((f) => `audit-log: ${f}`));
      await grand.context.close();
      expect(all).toEqual([]);
    },
    240_000,
  );
});

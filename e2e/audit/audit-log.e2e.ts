import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiCreateHotel, apiToken } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, signIn, TEXTS, type TLanguage } from '../support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type TBox = { x: number; y: number; width: number; height: number };
const overlap = (a: TBox, b: TBox) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Opens the Management group of the sidebar when it is closed. */
async function openManagement(page: Page, language: TLanguage) {
  const header = page.getByTestId('nav-group-management').getByRole('button', { name: TEXTS[language].nav.management });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
}

describe.each(LANGUAGES)('audit log (%s)', (language) => {
  const t = TEXTS[language];

  it('shows the granduser the edit of a hotel on its detail screen and in the audit log', async () => {
    const stamp = `${language}-${Date.now().toString(36)}`;
    const hotel = await apiCreateHotel(`監査テストホテル ${stamp}`);
    const renamed = `監査テストホテル 改 ${stamp}`;
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'grand@demo.test');
    await page.waitForURL('**/management/brand-list*');

    await page.goto(`/management/hotel-list/${hotel.id}`);
    await page.getByRole('heading', { name: hotel.name, level: 1 }).waitFor();
    await page.getByRole('button', { name: t.management.edit }).click();
    const form = page.getByTestId('host-form');
    await form.locator('input[name="name"]').fill(renamed);
    await form.getByRole('button', { name: t.common.save }).click();
    await page.getByRole('heading', { name: renamed, level: 1 }).waitFor();
    // The success toast leaves the page's Edit and Delete buttons free.
    const toast = await page.getByTestId('snackbar').filter({ hasText: t.management.form.saved }).boundingBox();
    for (const name of [t.management.edit, t.management.delete.action]) {
      const button = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(toast && button && overlap(toast, button), name).toBe(false);
    }

    // The hotel's own log, on its detail screen, newest first.
    const sentence = t.audit.actions.update.replace(
      '{{target}}',
      t.audit.target.replace('{{type}}', t.audit.types.hotel).replace('{{name}}', renamed),
    );
    const nameChange = t.audit.change
      .replace('{{field}}', t.audit.fields.name)
      .replace('{{before}}', hotel.name)
      .replace('{{after}}', renamed);
    const granduser = t.audit.acting.replace('{{role}}', t.roles.grand_user.granduser).replace('{{host}}', 'Yado');
    const own = page.getByTestId('host-audit-log').getByTestId('audit-entry');
    await own.first().filter({ hasText: sentence }).waitFor();
    const first = await own.first().locator('td').allTextContents();
    expect(first[1]).toBe('grand@demo.test');
    expect(first[2]).toBe(granduser);
    expect(first[3]).toBe(sentence);
    expect(first[4]).toBe(nameChange);
    // Spec date format: Japanese long date with a 12-hour clock, or "03 May 2026, 3:04 PM".
    expect(first[0]).toMatch(
      language === 'ja'
        ? /^\d{4}年\d{1,2}月\d{1,2}日 午[前後]\d{1,2}:\d{2}$/
        : /^\d{2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [AP]M$/,
    );
    // Its creation is there too, below the edit.
    await own
      .filter({ hasText: t.audit.actions.create.split('{{target}}').join('').trim() })
      .first()
      .waitFor();

    // The audit log page, from the sidebar, narrowed to the brand.
    await openManagement(page, language);
    await page.getByRole('link', { name: t.nav.audit_log }).click();
    await page.waitForURL('**/management/audit-log');
    await page.getByRole('heading', { name: t.nav.audit_log, level: 1 }).waitFor();
    await page.locator('select[name="brandId"]').selectOption({ label: 'さくらホテルズ' });
    const entry = page.getByTestId('audit-entry').filter({ hasText: sentence });
    await entry.waitFor();
    expect(await entry.getByText(nameChange).count()).toBe(1);
    await screenshot(page, `audit-log-${language}`);
    await context.close();
  });

  it("tells a campaign's creation and rename, and a template's copy, as sentences", async () => {
    const stamp = `${language}-${Date.now().toString(36)}`;
    const token = await apiToken('brand.admin@demo.test');
    const name = `監査キャンペーン ${stamp}`;
    const created = await apiCall<{ id: string }>('POST', '/v1/campaigns', {
      token,
      body: { name, subject: '件名', recipients: { segmentIds: [] } },
    });
    expect(created.status).toBe(200);
    const renamed = `${name} 改`;
    expect((await apiCall('PUT', `/v1/campaigns/${created.data.id}`, { token, body: { name: renamed } })).status).toBe(
      200,
    );
    const template = await apiCall<{ id: string }>('POST', '/v1/templates', {
      token,
      body: { name: `監査テンプレート ${stamp}`, defaultLanguage: 'ja' },
    });
    expect(template.status).toBe(200);
    const copyName = `監査テンプレート 複製 ${stamp}`;
    expect(
      (await apiCall('POST', `/v1/templates/${template.data.id}/duplicate`, { token, body: { name: copyName } }))
        .status,
    ).toBe(200);

    const target = (type: string, name: string) => t.audit.target.replace('{{type}}', type).replace('{{name}}', name);
    const madeSentence = t.audit.actions.create.replace('{{target}}', target(t.audit.types.campaign, name));
    const updated = t.audit.actions.update.replace('{{target}}', target(t.audit.types.campaign, renamed));
    const nameChange = t.audit.change
      .replace('{{field}}', t.audit.fields.name)
      .replace('{{before}}', name)
      .replace('{{after}}', renamed);
    const copied = t.audit.actions.duplicate.replace('{{target}}', target(t.audit.types.template, copyName));
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'grand@demo.test');
    await page.waitForURL('**/management/brand-list*');
    await page.goto('/management/audit-log');
    await page.getByRole('heading', { name: t.nav.audit_log, level: 1 }).waitFor();
    await page.locator('select[name="brandId"]').selectOption({ label: 'さくらホテルズ' });
    const entries = page.getByTestId('audit-entry');
    await entries.filter({ hasText: madeSentence }).waitFor();
    const update = entries.filter({ hasText: updated });
    await update.waitFor();
    expect(await update.getByText(nameChange).count()).toBe(1);
    await entries.filter({ hasText: copied }).waitFor();
    await context.close();
  });

  it('pages a long log with "load more", to its end', async () => {
    const hotel = await apiCreateHotel(`監査ページングホテル ${language}-${Date.now().toString(36)}`);
    const token = await apiToken('grand@demo.test');
    const current = (await apiCall<{ logoUrl: string }>('GET', `/v1/hotels/${hotel.id}`, { token })).data;
    // 51 edits and the creation: one page of 50 and two more.
    for (let i = 1; i <= 51; i += 1) {
      const edit = await apiCall('PUT', `/v1/hotels/${hotel.id}`, {
        token,
        body: { name: hotel.name, address: `東京都港区芝公園4-2-${i}`, logoUrl: current.logoUrl },
      });
      expect(edit.status).toBe(200);
    }
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'grand@demo.test');
    await page.waitForURL('**/management/brand-list*');
    await page.goto(`/management/hotel-list/${hotel.id}`);
    const rows = page.getByTestId('host-audit-log').getByTestId('audit-entry');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(50);
    expect(await page.getByText(t.audit.end).count()).toBe(0);
    await page.getByRole('button', { name: t.audit.load_more }).click();
    await page.getByText(t.audit.end).waitFor();
    expect(await rows.count()).toBe(52);
    expect(await rows.last().getAttribute('data-action')).toBe('create');
    const addresses = await rows.evaluateAll((all) => all.map((r) => r.textContent));
    expect(new Set(addresses).size).toBe(52);
    await context.close();
  });

  it('is not offered to a brand admin, whom the API refuses', async () => {
    const token = await apiToken('brand.admin@demo.test');
    expect((await apiCall('GET', '/v1/audit', { token })).status).toBe(403);
    const { context, page } = await openPage(browser, language);
    await signIn(page, language, 'brand.admin@demo.test');
    await page.getByTestId('sidebar').waitFor();
    await openManagement(page, language);
    await page.getByRole('link', { name: t.nav.hotel_list }).waitFor();
    expect(await page.getByRole('link', { name: t.nav.audit_log }).count()).toBe(0);
    await page.goto('/management/audit-log');
    await page.getByTestId('area-forbidden').waitFor();
    expect(await page.getByTestId('audit-table').count()).toBe(0);
    // A hotel's detail screen has no log for them either.
    await page.goto('/management/hotel-list');
    await page.getByTestId('host-row').first().click();
    await page.getByTestId('host-info').waitFor();
    expect(await page.getByTestId('host-audit-log').count()).toBe(0);
    await context.close();
  });
});

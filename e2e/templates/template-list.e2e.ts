import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  launchBrowser,
  openPage,
  screenshot,
  signIn,
  TEXTS,
  toastText,
  type TLanguage,
} from '../support/browser';
import { apiCall, apiToken } from '../support/api';

const BRAND_ADMIN = 'brand.admin@demo.test';
const HOTEL_ADMIN = 'hotel.admin@demo.test';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A template of the brand さくらホテルズ with one text block, made through the API. */
async function brandTemplate(name: string): Promise<string> {
  const token = await apiToken(BRAND_ADMIN);
  const created = await apiCall<{ id: string }>('POST', '/v1/templates', {
    token,
    body: {
      name,
      description: 'チェックイン3日前に送るご案内',
      defaultLanguage: 'ja',
      contents: {
        ja: {
          subject: 'ご到着前のご案内',
          preheader: '',
          document: {
            version: 1,
            sections: [
              {
                id: 's1',
                columns: [
                  {
                    id: 'c1',
                    blocks: [
                      {
                        id: 't1',
                        type: 'text',
                        content: {
                          type: 'doc',
                          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'ようこそ' }] }],
                        },
                      },
                    ],
                  },
                ],
              },
            ],
          },
        },
      },
    },
  });
  if (created.status !== 200) throw new Error(`creating a template answered ${created.status}`);
  return created.data.id;
}

async function openList(language: TLanguage, email: string): Promise<Page> {
  const { page } = await openPage(browser, language);
  await signIn(page, language, email);
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto('/templates');
  return page;
}

/** Types into the search box and waits for the list that answers it (after the 1,000 ms pause). */
async function search(page: Page, language: TLanguage, text: string) {
  const asked = page.waitForResponse(
    (response) => response.url().includes('/v1/templates?') && response.url().includes(encodeURIComponent(text)),
  );
  await page.getByPlaceholder(TEXTS[language].templates.list.search).fill(text);
  await asked;
}

const card = (page: Page, name: string) => page.locator(`[data-testid="template-card"][data-name="${name}"]`);

describe.each(LANGUAGES)('the template list (%s)', (language: TLanguage) => {
  const t = TEXTS[language];

  it('finds, duplicates, reports on and deletes a template; its hotels see it read-only', async () => {
    const token = `${language}${Date.now().toString(36)}`;
    const name = `ご到着前 ${token}`;
    await brandTemplate(name);

    const page = await openList(language, BRAND_ADMIN);
    await search(page, language, token);
    await card(page, name).waitFor();
    expect(await page.getByTestId('template-card').count()).toBe(1);
    // The cover is the server's rendering of the template itself.
    await card(page, name).frameLocator('iframe').getByText('ようこそ').waitFor();
    await screenshot(page, `templates-list-${language}`);

    // View report: no campaign has used it yet.
    await card(page, name)
      .getByRole('button', { name: t.templates.actions.menu.replace('{{name}}', name) })
      .click();
    await page.getByRole('menuitem', { name: t.templates.actions.view_report }).click();
    const report = page.getByRole('dialog', { name: t.templates.report.title.replace('{{name}}', name) });
    await report.getByText(t.ui.empty.no_data, { exact: true }).waitFor();
    if (language === 'en') expect(t.ui.empty.no_data).toBe('No Data Found');
    await page.keyboard.press('Escape');
    await report.waitFor({ state: 'hidden' });

    // Duplicate, then delete the copy after confirming.
    await card(page, name)
      .getByRole('button', { name: t.templates.actions.menu.replace('{{name}}', name) })
      .click();
    await page.getByRole('menuitem', { name: t.templates.actions.duplicate }).click();
    await toastText(page);
    await screenshot(page, `templates-list-duplicated-${language}`);
    await expect.poll(() => page.getByRole('menu').count(), { timeout: 5_000 }).toBe(0);
    await expect.poll(() => page.getByTestId('template-card').count(), { timeout: 10_000 }).toBe(2);
    const copyName = await page
      .getByTestId('template-card')
      .evaluateAll(
        (cards, original) => cards.map((c) => c.getAttribute('data-name')).find((n) => n !== original),
        name,
      );
    expect(copyName).toContain(token);
    // Named in the language the console is read in, whatever the profile's (Japanese here).
    expect(copyName).toBe(language === 'en' ? `${name} (copy)` : `${name}（コピー）`);
    await card(page, copyName!)
      .getByRole('button', { name: t.templates.actions.menu.replace('{{name}}', copyName!) })
      .click();
    await page.getByRole('menuitem', { name: t.templates.actions.delete }).click();
    const confirm = page.getByRole('dialog', { name: t.templates.delete.title });
    await confirm.getByText(t.templates.delete.message.replace('{{name}}', copyName!)).waitFor();
    await confirm.getByRole('button', { name: t.templates.actions.delete }).click();
    await expect.poll(() => page.getByTestId('template-card').count(), { timeout: 10_000 }).toBe(1);

    // A hotel of the brand uses the brand's template read-only: no delete, the editor says why.
    const hotel = await openList(language, HOTEL_ADMIN);
    await search(hotel, language, token);
    await card(hotel, name).getByTestId('template-read-only').waitFor();
    await card(hotel, name)
      .getByRole('button', { name: t.templates.actions.menu.replace('{{name}}', name) })
      .click();
    await hotel.getByRole('menuitem', { name: t.templates.actions.duplicate }).waitFor();
    expect(await hotel.getByRole('menuitem', { name: t.templates.actions.delete }).count()).toBe(0);
    await hotel.getByRole('menuitem', { name: t.templates.actions.view, exact: true }).click();
    await hotel.getByTestId('read-only-notice').waitFor();
    expect(await hotel.getByTestId('palette').count()).toBe(0);
    expect(await hotel.getByTestId('save-status').count()).toBe(0);
    // A copy of its own is the hotel's to change.
    const brandUrl = hotel.url();
    await hotel.getByTestId('read-only-notice').getByRole('button', { name: t.templates.actions.duplicate }).click();
    await hotel.waitForURL((url) => url.href !== brandUrl && /\/templates\/[0-9a-f-]+$/.test(url.pathname));
    await hotel.getByTestId('palette').waitFor();
    expect(await hotel.getByTestId('read-only-notice').count()).toBe(0);
  });
});

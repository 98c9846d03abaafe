import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, apiToken, uniqueEmail } from '../support/api';
import { LANGUAGES, launchBrowser, openPage, screenshot, TEXTS, type TLanguage } from '../support/browser';
import { paragraphContent } from '../support/campaign-fixture';

/**
 * The public /unsubscribe page, from a real campaign mail: the guest follows the footer link, is
 * unsubscribed at once (no sign-in) in the language of the mail, reads the brand's unsubscribed
 * message, and can undo. The console's customer then shows the status and who changed it.
 */

const ADMIN = 'brand.admin@demo.test';
const GRAND = 'grand@demo.test';
const SENDER = 'info@sakura-hotels.example.jp';

let browser: Browser;
let admin: string;
let grand: string;
let ownSettings: Record<string, unknown> | null = null;
let unsubscribedMessage: Record<TLanguage, string> = { ja: '', en: '' };

const tokyoHour = (offsetHours: number) =>
  `${String((new Date().getUTCHours() + 9 + offsetHours + 48) % 24).padStart(2, '0')}:00`;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiToken(ADMIN);
  grand = await apiToken(GRAND);
  // Quiet hours (21:00-08:00 by default) would hold a send made in the evening: moved away for the run.
  const current = await apiCall<{
    own: Record<string, unknown>;
    effective: { unsubscribedMessage: string | null; unsubscribedMessageEn: string | null };
  }>('GET', '/v1/sending/settings', { token: admin });
  ownSettings = current.data.own;
  const { unsubscribedMessage: ja, unsubscribedMessageEn: en } = current.data.effective;
  // Each language's message; English falls back to the Japanese one.
  unsubscribedMessage = { ja: ja ?? '', en: en ?? ja ?? '' };
  const moved = await apiCall('PUT', '/v1/sending/settings', {
    token: admin,
    body: { ...ownSettings, quietHoursStart: tokyoHour(4), quietHoursEnd: tokyoHour(6) },
  });
  expect(moved.status).toBe(200);
});
afterAll(async () => {
  if (ownSettings) await apiCall('PUT', '/v1/sending/settings', { token: admin, body: ownSettings });
  await browser?.close();
});

/** A guest of `country`, a static segment of them, a template in both languages, and a campaign sent now. */
async function mailedGuest(language: TLanguage): Promise<{ customerId: string; link: string }> {
  const run = `${Date.now().toString(36)}${language}`;
  const hotels = await apiCall<{ items: { id: string; name: string }[] }>('GET', '/v1/hotels?pageSize=100', {
    token: admin,
  });
  const hotelId = hotels.data.items.find((h) => h.name === 'さくらホテル 新宿')!.id;
  const email = uniqueEmail(`unsub-${language}`);
  const guest = await apiCall<{ id: string }>('POST', '/v1/customers', {
    token: admin,
    body: {
      lastName: `Unsub${run}`,
      firstName: 'Guest',
      email,
      phone: `080${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      address: '東京都新宿区西新宿2-2-2',
      // The guest's language follows the country: Japan reads Japanese, elsewhere English.
      country: language === 'ja' ? 'JP' : 'US',
      hotelId,
    },
  });
  expect(guest.status, JSON.stringify(guest.data)).toBe(200);
  const segment = await apiCall<{ id: string }>('POST', '/v1/segments', {
    token: admin,
    body: { name: `配信停止 ${run}`, type: 'static' },
  });
  expect(segment.status).toBe(200);
  expect(
    (
      await apiCall('POST', `/v1/segments/${segment.data.id}/members`, {
        token: admin,
        body: { customerIds: [guest.data.id] },
      })
    ).status,
  ).toBe(200);
  const content = (subject: string, text: string) => paragraphContent(text, { subject });
  const template = await apiCall<{ id: string }>('POST', '/v1/templates', {
    token: admin,
    body: {
      name: `お知らせ ${run}`,
      defaultLanguage: 'ja',
      contents: { ja: content('お知らせ', '秋のご案内です。'), en: content('News', 'Our autumn news.') },
    },
  });
  expect(template.status).toBe(200);
  const campaign = await apiCall<{ id: string }>('POST', '/v1/campaigns', {
    token: admin,
    body: {
      name: `配信停止の確認 ${run}`,
      subject: language === 'ja' ? 'お知らせ' : 'News',
      senderEmail: SENDER,
      recipients: { segmentIds: [segment.data.id] },
      templateId: template.data.id,
    },
  });
  expect(campaign.status, JSON.stringify(campaign.data)).toBe(200);
  const sent = await apiCall('POST', `/v1/campaigns/${campaign.data.id}/send-now`, { token: admin, body: {} });
  expect(sent.status, JSON.stringify(sent.data)).toBe(200);

  const until = Date.now() + 90_000;
  for (;;) {
    const mails = await apiCall<{ html: string | null }[]>(
      'GET',
      `/v1/dev/outbox?to=${encodeURIComponent(email)}&limit=5`,
      { token: grand },
    );
    const html = mails.data?.[0]?.html;
    const href = html?.match(/href="([^"]*\/unsubscribe\?token=[^"]*)"/)?.[1];
    if (href)
      return {
        customerId: guest.data.id,
        link: href.replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))).replace(/&amp;/g, '&'),
      };
    if (Date.now() > until) throw new Error(`no campaign mail reached ${email}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe.each(LANGUAGES)('the public unsubscribe page (%s)', (language) => {
  const t = TEXTS[language];

  it('unsubscribes from the footer link at once, in the guest’s language, with the brand’s message, and undoes it', async () => {
    const { customerId, link } = await mailedGuest(language);
    expect(new URL(link).searchParams.get('lang')).toBe(language);
    // A browser set to the other language: the mail's link decides.
    const { page } = await openPage(browser, language === 'ja' ? 'en' : 'ja');
    const url = new URL(link);
    await page.goto(url.pathname + url.search);
    const view = page.getByTestId('unsubscribe-page');
    await page.locator('[data-testid="unsubscribe-page"][data-state="unsubscribed"]').waitFor();
    await page.getByRole('heading', { name: t.unsubscribe.done_title }).waitFor();
    expect(await page.getByTestId('unsubscribe-brand').textContent()).toBe('さくらホテルズ');
    const message = await page.getByTestId('unsubscribe-message').textContent();
    expect(message).toBe(
      unsubscribedMessage[language] || t.unsubscribe.default_message.replace('{{brand}}', 'さくらホテルズ'),
    );
    // No shell: the page is public.
    expect(await page.getByRole('navigation').count()).toBe(0);
    await screenshot(page, `unsubscribe-${language}`);

    const customer = await apiCall<{ emailStatus: string; unsubscribeReason: string | null }>(
      'GET',
      `/v1/customers/${customerId}`,
      { token: admin },
    );
    expect(customer.data).toMatchObject({ emailStatus: 'unsubscribed', unsubscribeReason: 'page' });

    await page.getByTestId('unsubscribe-undo').click();
    await page.locator('[data-testid="unsubscribe-page"][data-state="resubscribed"]').waitFor();
    expect(await page.getByTestId('unsubscribe-resubscribed').textContent()).toBe(
      t.unsubscribe.resubscribed.replace('{{brand}}', 'さくらホテルズ'),
    );
    expect(
      (await apiCall<{ emailStatus: string }>('GET', `/v1/customers/${customerId}`, { token: admin })).data.emailStatus,
    ).toBe('active');

    // And unsubscribe again from the same page.
    await page.getByTestId('unsubscribe-again').click();
    await page.locator('[data-testid="unsubscribe-page"][data-state="unsubscribed"]').waitFor();
    expect(
      (await apiCall<{ emailStatus: string }>('GET', `/v1/customers/${customerId}`, { token: admin })).data.emailStatus,
    ).toBe('unsubscribed');
    expect(await view.getAttribute('data-state')).toBe('unsubscribed');
  });

  it('says plainly that a forged or altered link cannot be used, and changes nothing', async () => {
    const { page } = await openPage(browser, language);
    await page.goto(`/unsubscribe?token=AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA&lang=${language}`);
    await page.locator('[data-testid="unsubscribe-page"][data-state="invalid"]').waitFor();
    expect(await page.getByTestId('unsubscribe-error').textContent()).toBe(t.errors.unsubscribe_link_invalid);
    await page.goto(`/unsubscribe?lang=${language}`);
    await page.locator('[data-testid="unsubscribe-page"][data-state="invalid"]').waitFor();
  });
});

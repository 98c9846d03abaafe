import { readFileSync } from 'node:fs';
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
  type TPageOptions,
} from '../support/browser';
import { apiCall, apiToken } from '../support/api';
import { formatDate } from '../../apps/web/src/lib/dates/formatDate';

// The acting host: the brand さくらホテルズ, run by brand.admin, who reaches every customer of it.
const ADMIN = 'brand.admin@demo.test';
const GUESTS = 25;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface TArranged {
  /** The last name every guest of this run shares; searching for it shows exactly them. */
  family: string;
  phones: string[];
}

const randomPhone = () => `070${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/**
 * 25 guests of this run, added through the API as the brand admin (the demo seed has no
 * customers): the first 13 at さくらホテル 新宿, the rest at さくらホテル 横浜.
 */
async function arrange(language: TLanguage): Promise<TArranged> {
  const token = await apiToken(ADMIN);
  const hotels = await apiCall<{ items: { id: string; name: string }[] }>('GET', '/v1/hotels?pageSize=100', { token });
  const hotelId = (name: string) => hotels.data.items.find((h) => h.name === name)!.id;
  const family = `Kyaku${Date.now().toString(36)}${language}`;
  const phones: string[] = [];
  for (let i = 1; i <= GUESTS; i += 1) {
    const phone = randomPhone();
    const created = await apiCall('POST', '/v1/customers', {
      token,
      body: {
        lastName: family,
        firstName: `Guest${String(i).padStart(2, '0')}`,
        phone,
        email: `guest${i}.${family.toLowerCase()}@mail.yado.jp`,
        address: '東京都新宿区西新宿2-2-2',
        hotelId: hotelId(i <= 13 ? 'さくらホテル 新宿' : 'さくらホテル 横浜'),
      },
    });
    if (created.status !== 200) throw new Error(`adding a customer answered ${created.status}`);
    phones.push(phone);
  }
  return { family, phones };
}

/**
 * A customer of さくらホテルズ with bookings, once the first start's sync from the booking system
 * (the embedded simulator the demo brands are connected to) has finished.
 */
async function syncedGuestWithBookings(): Promise<{ id: string; bookings: TBookingRow[] }> {
  const token = await apiToken(ADMIN);
  for (let i = 0; i < 240; i += 1) {
    const status = await apiCall<{ syncPending: boolean }>('GET', '/v1/booking/connection', { token });
    if (!status.data.syncPending) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const page = await apiCall<{ items: { id: string; totalBookings: number }[] }>(
    'GET',
    '/v1/customers?limit=100&sort=name',
    { token },
  );
  const guest = page.data.items.find((c) => c.totalBookings > 1);
  if (!guest) throw new Error('no synced customer with bookings');
  const bookings = await apiCall<TBookingRow[]>('GET', `/v1/customers/${guest.id}/bookings`, { token });
  return { id: guest.id, bookings: bookings.data };
}

interface TBookingRow {
  hotelName: string;
  checkIn: string;
  amount: number;
  status: string;
  source: string | null;
}

async function openCustomerList(language: TLanguage, email = ADMIN, options: TPageOptions = {}): Promise<Page> {
  const { page } = await openPage(browser, language, options);
  await signIn(page, language, email);
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto('/customer-list');
  await page.getByTestId('sync-notice').waitFor();
  return page;
}

const rangeText = (language: TLanguage, from: number, to: number, total: number) =>
  TEXTS[language].customers.list.range
    .replace('{{from}}', String(from))
    .replace('{{to}}', String(to))
    .replace('{{total}}', String(total));

/** Waits for the pager to say which rows the list shows ("21–25 of 25"). */
async function showsRange(page: Page, language: TLanguage, from: number, to: number, total: number) {
  await page
    .getByTestId('customer-range')
    .filter({ hasText: rangeText(language, from, to, total) })
    .waitFor();
}

/** Types into the search box and waits for the list to ask for it (after the 1,000 ms pause). */
async function search(page: Page, language: TLanguage, text: string) {
  const asked = page.waitForResponse(
    (response) =>
      response.url().includes('/v1/customers?') && new URL(response.url()).searchParams.get('search') === text,
  );
  await page.getByRole('searchbox', { name: TEXTS[language].customers.list.search }).fill(text);
  await asked;
}

/** Searches for this run's guests, sorted by name (Guest01 first), and waits for the first page. */
async function showGuests(page: Page, language: TLanguage, family: string) {
  await page.locator('select[name="sort"]').selectOption('name');
  await search(page, language, family);
  await showsRange(page, language, 1, 20, GUESTS);
}

const rows = (page: Page) => page.getByTestId('customer-row');

describe.each(LANGUAGES)('customers (%s)', (language) => {
  const t = TEXTS[language];
  let guests: TArranged;

  let synced: { id: string; bookings: TBookingRow[] };

  beforeAll(async () => {
    guests = await arrange(language);
    synced = await syncedGuestWithBookings();
  });

  it('searches the list, pages through it with next and previous, and filters by hotel', async () => {
    const page = await openCustomerList(language);
    expect(await page.getByTestId('sync-notice').textContent()).toBe(t.customers.sync_notice);
    expect(await page.getByRole('link', { name: t.customers.actions.import }).getAttribute('href')).toBe(
      '/customer-list/import',
    );
    await showGuests(page, language, guests.family);
    expect(await rows(page).count()).toBe(20);
    expect(await rows(page).first().textContent()).toContain('Guest01');
    await screenshot(page, `customer-list-${language}`);

    await page.getByRole('button', { name: t.customers.list.next }).click();
    await showsRange(page, language, 21, 25, GUESTS);
    expect(await rows(page).count()).toBe(5);
    expect(await rows(page).first().textContent()).toContain('Guest21');
    expect(await page.getByRole('button', { name: t.customers.list.next }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: t.customers.list.previous }).click();
    await showsRange(page, language, 1, 20, GUESTS);
    expect(await rows(page).first().textContent()).toContain('Guest01');

    await page.locator('select[name="pageSize"]').selectOption('50');
    await showsRange(page, language, 1, 25, GUESTS);
    // A phone number finds one guest.
    await search(page, language, guests.phones[4]!);
    await showsRange(page, language, 1, 1, 1);
    expect(await rows(page).first().textContent()).toContain('Guest05');

    await search(page, language, guests.family);
    await showsRange(page, language, 1, 25, GUESTS);
    const yokohama = await page
      .locator('select[name="hotelId"] option', { hasText: 'さくらホテル 横浜' })
      .getAttribute('value');
    await page.locator('select[name="hotelId"]').selectOption(yokohama!);
    await showsRange(page, language, 1, 12, 12);
    expect(await rows(page).first().textContent()).toContain('Guest14');
    await page.context().close();
  });

  it("opens a customer's booking history and allocation summary", async () => {
    const page = await openCustomerList(language);
    await showGuests(page, language, guests.family);
    await rows(page).first().getByRole('link').click();
    await page.waitForURL(/\/customer-list\/[0-9a-f-]{36}$/);
    const info = page.getByTestId('customer-info');
    await info.waitFor();
    expect(await info.textContent()).toContain(guests.phones[0]);
    expect(await info.textContent()).toContain(t.customers.email_status.active);

    await page.getByRole('tab', { name: t.customers.tabs.booking_history }).click();
    expect(await page.getByTestId('total-bookings').textContent()).toContain('0');
    // Bookings arrive only with the booking system's sync, which no API call can stand in for.
    expect(await page.getByTestId('bookings-empty').textContent()).toBe(t.customers.bookings.empty);

    await page.getByRole('button', { name: t.customers.actions.allocation_summary }).click();
    const dialog = page.getByRole('dialog', { name: t.customers.actions.allocation_summary });
    await dialog.getByTestId('allocation-summary').waitFor();
    expect(await dialog.getByTestId('allocation-brand').textContent()).toContain('さくらホテルズ');
    expect(await dialog.getByTestId('allocation-groups').textContent()).toContain('関東エリア');
    const hotel = dialog.getByTestId('allocation-hotels');
    expect(await hotel.textContent()).toContain('さくらホテル 新宿');
    expect(await hotel.textContent()).toContain(t.customers.allocation.source.manual);
    await screenshot(page, `customer-allocations-${language}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Back on the list, the search and page are as they were left.
    await page.getByRole('link', { name: t.customers.actions.back_to_list }).click();
    await page.waitForURL('**/customer-list');
    expect(await page.getByRole('searchbox', { name: t.customers.list.search }).inputValue()).toBe(guests.family);
    await showsRange(page, language, 1, 20, GUESTS);
    expect(await rows(page).first().textContent()).toContain('Guest01');
    await page.context().close();
  });

  it("shows when a customer was added in the host's time zone, in a browser in another, and names the zone", async () => {
    const token = await apiToken(ADMIN);
    const found = await apiCall<{ items: { id: string; createdAt: string }[]; timeZone: string }>(
      'GET',
      `/v1/customers?search=${guests.phones[0]}`,
      { token },
    );
    const guest = found.data.items[0]!;
    const hostZone = found.data.timeZone;
    expect(hostZone).toBe('Asia/Tokyo');
    const browserZone = 'America/New_York';
    // The two zones are 13 or 14 hours apart: the browser's own clock would show another time.
    const inHostZone = formatDate(guest.createdAt, language, { withTime: true, timeZone: hostZone });
    expect(formatDate(guest.createdAt, language, { withTime: true, timeZone: browserZone })).not.toBe(inHostZone);
    const note = (text: string) => text.replace('{{timeZone}}', hostZone);

    const page = await openCustomerList(language, ADMIN, { timeZone: browserZone });
    await showGuests(page, language, guests.family);
    expect(await rows(page).first().textContent()).toContain(
      formatDate(guest.createdAt, language, { timeZone: hostZone }),
    );
    expect(await page.getByTestId('customer-time-zone').textContent()).toBe(note(t.customers.list.time_zone_note));

    await rows(page).first().getByRole('link').click();
    const added = page.getByTestId('customer-info').locator('[data-field="created_at"] td');
    await added.waitFor();
    expect(await added.textContent()).toBe(inHostZone);
    expect(await page.getByTestId('customer-time-zone').textContent()).toBe(note(t.customers.time_zone_note));
    await page.context().close();
  });

  it("shows a hotel's user the allocation summary of its own hotel, saying other hotels are not shown", async () => {
    // Guest01, allocated to さくらホテル 新宿, whose admin this is.
    const token = await apiToken(ADMIN);
    const found = await apiCall<{ items: { id: string }[] }>('GET', `/v1/customers?search=${guests.phones[0]}`, {
      token,
    });
    const page = await openCustomerList(language, 'hotel.admin@demo.test');
    await page.goto(`/customer-list/${found.data.items[0]!.id}`);
    await page.getByTestId('customer-info').waitFor();
    await page.getByRole('button', { name: t.customers.actions.allocation_summary }).click();
    const dialog = page.getByRole('dialog', { name: t.customers.actions.allocation_summary });
    await dialog.getByTestId('allocation-summary').waitFor();
    expect(await dialog.getByTestId('allocation-in-reach').textContent()).toBe(t.customers.allocation.in_reach_note);
    expect(await dialog.getByTestId('allocation-hotels').getByTestId('allocation-row').count()).toBe(1);
    expect(await dialog.getByTestId('allocation-hotels').textContent()).toContain('さくらホテル 新宿');
    await page.context().close();
  });

  it("shows a synced customer's bookings, newest stay first, and the hotels they came through", async () => {
    const page = await openCustomerList(language);
    await page.goto(`/customer-list/${synced.id}`);
    await page.getByTestId('customer-info').waitFor();
    await page.getByRole('tab', { name: t.customers.tabs.booking_history }).click();
    const bookingRows = page.getByTestId('booking-row');
    await bookingRows.first().waitFor();
    expect(await bookingRows.count()).toBe(synced.bookings.length);
    const newest = synced.bookings[0]!;
    const first = (await bookingRows.first().textContent()) ?? '';
    expect(first).toContain(newest.hotelName);
    expect(first).toContain(t.customers.booking_status[newest.status as keyof typeof t.customers.booking_status]);
    const yen = new Intl.NumberFormat(language === 'ja' ? 'ja-JP' : 'en-US', { style: 'currency', currency: 'JPY' });
    expect(first).toContain(yen.format(newest.amount));
    // The booking system's source code, named in the reader's language (every code it sends has a name).
    const source = (t.booking_sources as Record<string, string>)[newest.source ?? ''];
    expect(source).toBeDefined();
    expect(first).toContain(source);
    expect(first).not.toContain(newest.source);
    await screenshot(page, `customer-bookings-${language}`);

    await page.getByRole('button', { name: t.customers.actions.allocation_summary }).click();
    const hotels = page.getByRole('dialog').getByTestId('allocation-hotels');
    await hotels.waitFor();
    const hotelRow = hotels.locator(`[data-testid="allocation-row"][data-name="${newest.hotelName}"]`);
    expect(await hotelRow.textContent()).toContain(t.customers.allocation.source.booking);
    await page.context().close();
  });

  it('edits a customer: the form names each mistake, the server refuses a phone in use, then it saves', async () => {
    const page = await openCustomerList(language);
    await showGuests(page, language, guests.family);
    await page.getByRole('button', { name: t.customers.list.next }).click();
    await rows(page).filter({ hasText: 'Guest25' }).getByRole('link').click();
    await page.getByTestId('customer-info').waitFor();
    await page.getByRole('button', { name: t.customers.actions.edit }).click();
    const form = page.getByTestId('customer-form');
    await form.locator('input[name="phone"]').fill('03-12ab');
    await form.locator('input[name="address"]').fill('');
    await form.getByRole('button', { name: t.common.save }).click();
    await form.getByText(t.errors.use_numbers_only).waitFor();
    await form.getByText(t.errors.field_required_fill).waitFor();

    await form.locator('input[name="address"]').fill('東京都新宿区西新宿3-3-3');
    await form.locator('input[name="phone"]').fill(guests.phones[0]!);
    await form.getByRole('button', { name: t.common.save }).click();
    await form.getByText(t.errors.phone_exists).waitFor();

    // Prefecture and city from Japan's lists, named in the console's language.
    const tokyo = language === 'en' ? 'Tokyo' : '東京都';
    const shinjuku = language === 'en' ? 'Shinjuku City' : '新宿区';
    await form.getByRole('combobox', { name: t.customers.fields.prefecture }).click();
    await page.getByRole('option', { name: tokyo, exact: true }).click();
    await form.getByRole('combobox', { name: t.customers.fields.city }).click();
    await page.getByRole('option', { name: shinjuku, exact: true }).click();
    const phone = randomPhone();
    await form.locator('input[name="phone"]').fill(phone);
    await screenshot(page, `customer-edit-${language}`);
    await form.getByRole('button', { name: t.common.save }).click();
    expect(await toastText(page)).toContain(t.customers.done.saved);
    await form.waitFor({ state: 'hidden' });
    const info = page.getByTestId('customer-info');
    await info.locator('[data-field="phone"]').filter({ hasText: phone }).waitFor();
    expect(await info.locator('[data-field="prefecture"]').textContent()).toContain(tokyo);
    expect(await info.locator('[data-field="city"]').textContent()).toContain(shinjuku);
    expect(await info.locator('[data-field="address"]').textContent()).toContain('西新宿3-3-3');
    await screenshot(page, `customer-detail-${language}`);
    // The toast does not cover the page header's actions while it is shown.
    const toast = (await page.getByTestId('snackbar').last().boundingBox())!;
    for (const name of [t.customers.actions.edit, t.customers.actions.delete]) {
      const button = (await page.getByRole('button', { name }).boundingBox())!;
      const apart =
        toast.x >= button.x + button.width ||
        button.x >= toast.x + toast.width ||
        toast.y >= button.y + button.height ||
        button.y >= toast.y + toast.height;
      expect(apart, name).toBe(true);
    }
    await page.context().close();
  });

  it('sets a selection to unsubscribed after confirming, and exports what the filters show as CSV', async () => {
    const page = await openCustomerList(language);
    await showGuests(page, language, guests.family);
    for (const name of ['Guest01', 'Guest02', 'Guest03']) {
      await rows(page).filter({ hasText: name }).getByRole('checkbox').check();
    }
    const bar = page.getByTestId('selection-bar');
    expect(await bar.textContent()).toContain(t.customers.list.selected.replace('{{count}}', '3'));
    await bar.getByRole('button', { name: t.customers.actions.set_unsubscribed }).click();
    const confirm = page.getByRole('dialog', { name: t.customers.actions.set_unsubscribed });
    expect(await confirm.textContent()).toContain(
      t.customers.confirm.set_unsubscribed_many_other.replace('{{count}}', '3'),
    );
    await confirm.getByRole('button', { name: t.common.confirm }).click();
    expect(await toastText(page)).toContain(t.customers.done.status_changed_other.replace('{{count}}', '3'));
    await bar.waitFor({ state: 'hidden' });

    await page.locator('select[name="emailStatus"]').selectOption('unsubscribed');
    await showsRange(page, language, 1, 3, 3);
    const shown = await rows(page).allTextContents();
    expect(shown.every((row) => row.includes(t.customers.email_status.unsubscribed))).toBe(true);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t.customers.actions.export }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^customers-\d{4}-\d{2}-\d{2}\.csv$/);
    // A real download from a one-minute link, streamed to disk by the browser, not a blob the page
    // built in memory; the address holds no search text or token.
    const address = new URL(download.url());
    expect(address.pathname).toBe('/v1/customers/export-downloads');
    expect(address.searchParams.get('link')).toMatch(/^v1\./);
    expect(download.url()).not.toContain(encodeURIComponent(guests.family));
    const bytes = readFileSync((await download.path())!);
    // Excel in Japan reads UTF-8 only with a byte-order mark.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).trim().split('\r\n');
    expect(lines[0]).toContain(language === 'ja' ? '電話番号' : 'Phone number');
    expect(lines).toHaveLength(4);
    expect(
      lines
        .slice(1)
        .map((line) => line.match(/Guest\d\d/)?.[0])
        .sort(),
    ).toEqual(['Guest01', 'Guest02', 'Guest03']);
    await screenshot(page, `customer-unsubscribed-${language}`);
    await page.context().close();
  });

  it('adds a customer at a hotel from the list, then deletes them after confirming', async () => {
    const page = await openCustomerList(language);
    await page.getByRole('button', { name: t.customers.actions.add }).click();
    const form = page.getByTestId('customer-form');
    await form.locator('input[name="lastName"]').fill(guests.family);
    await form.locator('input[name="firstName"]').fill('Guest26');
    await form.locator('input[name="phone"]').fill(randomPhone());
    await form.locator('input[name="address"]').fill('神奈川県横浜市西区みなとみらい4-4');
    const yokohama = await form
      .locator('select[name="hotelId"] option', { hasText: 'さくらホテル 横浜' })
      .getAttribute('value');
    await form.locator('select[name="hotelId"]').selectOption(yokohama!);
    await form.getByRole('button', { name: t.customers.form.add_submit }).click();
    expect(await toastText(page)).toContain(t.customers.done.added);
    await page.waitForURL(/\/customer-list\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: /Guest26/ }).waitFor();

    await page.getByRole('button', { name: t.customers.actions.delete }).click();
    const confirm = page.getByRole('dialog', { name: t.customers.confirm.delete_title });
    expect(await confirm.textContent()).toContain('Guest26');
    await confirm.getByRole('button', { name: t.customers.actions.delete }).click();
    // The "added" toast may still be shown beside it.
    await page.getByTestId('snackbar').filter({ hasText: t.customers.done.deleted }).waitFor();
    await page.waitForURL('**/customer-list');
    await search(page, language, `${guests.family}`);
    await showsRange(page, language, 1, 20, GUESTS);
    expect(await page.getByTestId('customer-row').filter({ hasText: 'Guest26' }).count()).toBe(0);
    await page.context().close();
  });

  it('shows a viewer the list without the add, import, export and email status controls', async () => {
    const page = await openCustomerList(language, 'hotel.viewer@demo.test');
    await search(page, language, guests.family);
    // The viewer's hotel is さくらホテル 新宿: the 13 guests allocated to it.
    await showsRange(page, language, 1, 13, 13);
    for (const label of [t.customers.actions.add, t.customers.actions.export]) {
      expect(await page.getByRole('button', { name: label }).count()).toBe(0);
    }
    expect(await page.getByRole('link', { name: t.customers.actions.import }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.locator('select[name="hotelId"]').count()).toBe(0);
    await page.context().close();
  });
});

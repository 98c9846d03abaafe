import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { featureFlagsFor } from '@yado/contracts/features';
import { afterEach, describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { CustomerDetailPage } from './CustomerDetailPage';

const ID = '0b7c2f5e-1111-4a2b-9c3d-123456789abc';
const customer = {
  id: ID,
  firstName: '太郎',
  lastName: '山田',
  fullName: '山田 太郎',
  phone: '09012345678',
  email: 'taro@mail.yado.jp',
  idNumber: null,
  gender: 'male',
  dateOfBirth: '1985-05-03',
  age: 41,
  country: 'JP',
  prefecture: '東京都',
  city: '新宿区',
  address: '西新宿2-2-2',
  emailStatus: 'active',
  emailStatusChangedAt: null,
  unsubscribeReason: null,
  consentSource: 'booking_system',
  consentAt: '2026-04-01T00:00:00Z',
  createdAt: '2026-04-01T00:00:00Z',
  updatedAt: '2026-04-01T00:00:00Z',
  totalBookings: 2,
  totalPayments: 36000,
  timeZone: 'Asia/Tokyo',
  suppression: null,
};
const booking = {
  id: 'bk1',
  hotelName: 'さくらホテル 新宿',
  hotelGroupName: '関東エリア',
  brandName: 'さくらホテルズ',
  bookingDate: '2026-03-20',
  checkIn: '2026-04-03',
  checkOut: '2026-04-05',
  nights: 2,
  guests: 2,
  roomName: 'デラックスツイン',
  roomType: 'twin',
  source: 'official_site',
  amount: 36000,
  status: 'checked_out',
};

function serve(bookings = [booking], shown: Record<string, unknown> = customer) {
  return mockFetch((method, url) => {
    if (url.pathname === `/v1/customers/${ID}`) return { body: { data: shown } };
    if (url.pathname === `/v1/customers/${ID}/bookings`) return { body: { data: bookings } };
    if (url.pathname === `/v1/customers/${ID}/allocations`) {
      return {
        body: {
          data: {
            brand: { name: 'さくらホテルズ', bookingCount: 2 },
            hotelGroups: [{ id: 'g1', name: '関東エリア', bookingCount: 2 }],
            hotels: [
              { id: 'h1', name: 'さくらホテル 新宿', hotelGroupName: '関東エリア', bookingCount: 2, source: 'booking' },
            ],
          },
        },
      };
    }
    if (url.pathname === '/v1/locations/countries') {
      return {
        body: { data: [{ code: 'JP', callingCode: '81', name: { ja: '日本', en: 'Japan' }, flagUrl: '/f/JP.svg' }] },
      };
    }
    if (url.pathname === '/v1/locations/prefectures') {
      return { body: { data: [{ code: '13', name: { ja: '東京都', en: 'Tokyo' } }] } };
    }
    if (url.pathname === '/v1/locations/prefectures/13/cities') {
      return { body: { data: [{ code: '13104', name: { ja: '新宿区', en: 'Shinjuku City' } }] } };
    }
    return undefined;
  });
}

async function renderAs(
  role: 'admin' | 'viewer',
  features = featureFlagsFor('production'),
  language: 'ja' | 'en' = 'en',
  level: 'brand' | 'hotel_group' | 'hotel' = 'brand',
) {
  return renderWithProviders(<CustomerDetailPage />, {
    path: `/customer-list/${ID}`,
    pattern: '/customer-list/:id',
    language,
    queryClient: signedInClient(profileFixture(level, role, { features })),
  });
}

const field = async (key: string) =>
  (await screen.findByTestId('customer-info')).querySelector(`[data-field="${key}"]`);

describe('CustomerDetailPage', () => {
  it('shows stored Japanese place names in English, the country with its calling code, and the birth date', async () => {
    serve();
    await renderAs('admin');
    await screen.findByText('Tokyo');
    expect((await field('city'))?.textContent).toContain('Shinjuku City');
    expect((await field('country'))?.textContent).toContain('Japan (+81)');
    expect((await field('date_of_birth'))?.textContent).toContain('03 May 1985');
    expect((await field('gender'))?.textContent).toContain('Male');
  });

  it('lists bookings with calendar dates, status, room and amount, under the totals', async () => {
    serve();
    await renderAs('admin');
    fireEvent.click(await screen.findByRole('tab', { name: 'Booking history' }));
    const row = await screen.findByTestId('booking-row');
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      'さくらホテル 新宿',
      '関東エリア',
      'さくらホテルズ',
      '20 Mar 2026',
      '03 Apr 2026',
      '05 Apr 2026',
      'Checked out',
      '2',
      '2',
      'デラックスツイン',
      'Twin',
      'official_site',
      '¥36,000',
    ]);
    expect(screen.getByTestId('total-bookings').textContent).toContain('2');
    expect(screen.getByTestId('total-payments').textContent).toContain('¥36,000');
  });

  it("names each booking's source in the reader's language, and an unknown code as it came", async () => {
    const bookings = ['rakuten_travel', 'direct_web', 'new_channel'].map((source, i) => ({
      ...booking,
      id: `bk${i}`,
      source,
    }));
    const sources = async () =>
      (await screen.findAllByTestId('booking-row')).map((row) => within(row).getAllByRole('cell')[11]?.textContent);
    serve(bookings);
    await renderAs('admin', undefined, 'ja');
    fireEvent.click(await screen.findByRole('tab', { name: '予約履歴' }));
    expect(await sources()).toEqual(['楽天トラベル', '自社サイト', 'new_channel']);
    cleanup();
    serve(bookings);
    await renderAs('admin');
    fireEvent.click(await screen.findByRole('tab', { name: 'Booking history' }));
    expect(await sources()).toEqual(['Rakuten Travel', 'Direct (web)', 'new_channel']);
  });

  it('opens the allocation summary with the brand, hotel groups and hotels and their booking counts', async () => {
    serve();
    await renderAs('admin');
    fireEvent.click(await screen.findByRole('button', { name: 'Allocation summary' }));
    const summary = await screen.findByTestId('allocation-summary');
    expect(within(summary).getByTestId('allocation-groups').textContent).toContain('関東エリア2 bookings');
    expect(within(summary).getByTestId('allocation-hotels').textContent).toContain('By booking');
  });

  it('says in the allocation summary, below the brand, that only the hotels in reach are shown', async () => {
    serve();
    await renderAs('admin', featureFlagsFor('production'), 'en', 'hotel');
    fireEvent.click(await screen.findByRole('button', { name: 'Allocation summary' }));
    expect((await screen.findByTestId('allocation-in-reach')).textContent).toBe(
      "Only the hotels within your role's reach are shown, with their bookings counted.",
    );
    cleanup();
    serve();
    await renderAs('admin');
    fireEvent.click(await screen.findByRole('button', { name: 'Allocation summary' }));
    await screen.findByTestId('allocation-summary');
    expect(screen.queryByTestId('allocation-in-reach')).toBeNull();
  });

  it('hides booking history, allocation summary and the new fields when their flags are off', async () => {
    serve();
    await renderAs('admin', {
      ...featureFlagsFor('production'),
      booking_history: false,
      allocation_summary: false,
      customer_new_fields: false,
    });
    await screen.findByTestId('customer-info');
    expect(screen.queryByRole('tab', { name: 'Booking history' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Allocation summary' })).toBeNull();
    expect(await field('gender')).toBeNull();
    expect(await field('address')).not.toBeNull();
  });

  it('offers a viewer no edit, delete or email status action', async () => {
    serve();
    await renderAs('viewer');
    await screen.findByTestId('customer-info');
    for (const name of ['Edit', 'Delete', 'Set unsubscribed'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    expect(screen.getByRole('button', { name: 'Allocation summary' })).toBeTruthy();
  });
});

describe('CustomerDetailPage in a browser in another time zone than the host', () => {
  const browserZone = process.env.TZ;
  afterEach(() => {
    if (browserZone === undefined) delete process.env.TZ;
    else process.env.TZ = browserZone;
  });

  const shown = {
    ...customer,
    emailStatus: 'unsubscribed',
    unsubscribeReason: 'manual',
    // 01:30 on 2 April, 00:05 on 11 May and 09:00 on 12 May in Tokyo; the day before in New York.
    createdAt: '2026-04-01T16:30:00Z',
    emailStatusChangedAt: '2026-05-10T15:05:00Z',
    emailBouncedAt: '2026-05-12T00:00:00Z',
  };

  it("shows when the customer was added, changed status and bounced in the host's time zone, named under the table", async () => {
    process.env.TZ = 'America/New_York';
    serve([booking], shown);
    await renderAs('admin');
    expect((await field('created_at'))?.textContent).toContain('02 Apr 2026, 1:30 AM');
    expect((await field('email_status_changed_at'))?.textContent).toContain('11 May 2026, 12:05 AM');
    expect((await field('email_bounced_at'))?.textContent).toContain('12 May 2026, 9:00 AM');
    // The birth date is a calendar date, in no zone.
    expect((await field('date_of_birth'))?.textContent).toContain('03 May 1985');
    expect(screen.getByTestId('customer-time-zone').textContent).toBe('Times on this page are in Asia/Tokyo.');
  });

  // An active guest whose address is on the brand's suppression list is mailed nothing: the page says
  // why, since and until when (in the host's zone), and links to the list.
  const held = {
    ...customer,
    suppression: { reason: 'soft_bounces', createdAt: '2026-05-10T15:05:00Z', until: '2026-06-09T15:05:00Z' },
  };

  it('shows an active guest on the suppression list with its reason, since and until, and the list', async () => {
    process.env.TZ = 'America/New_York';
    serve([booking], held);
    await renderAs('admin');
    const row = await field('suppression');
    expect(row?.querySelector('th')?.textContent).toBe('Suppression list');
    expect(row?.textContent).toContain('Repeated soft bounces');
    expect(row?.textContent).toContain(
      'On the list: no campaign or scenario mails this address. Since 11 May 2026, 12:05 AM, until 10 Jun 2026, 12:05 AM.',
    );
    expect(
      within(row as HTMLElement)
        .getByRole('link', { name: 'Open the suppression list' })
        .getAttribute('href'),
    ).toBe('/suppression-list');
    expect((await field('email_status'))?.textContent).toContain('Active');
  });

  it('says so in Japanese, a manual entry until lifted', async () => {
    process.env.TZ = 'America/New_York';
    serve([booking], { ...held, suppression: { reason: 'manual', createdAt: '2026-05-10T15:05:00Z', until: null } });
    await renderAs('admin', featureFlagsFor('production'), 'ja');
    const row = await field('suppression');
    expect(row?.querySelector('th')?.textContent).toBe('送信除外リスト');
    expect(row?.textContent).toContain('手動で追加');
    expect(row?.textContent).toContain('登録日時: 2026年5月11日 午前0:05、除外期限: 解除するまで');
    expect(within(row as HTMLElement).getByRole('link', { name: '送信除外リストを開く' })).toBeTruthy();
  });

  it('shows no suppression row for a guest not on the list', async () => {
    serve([booking], customer);
    await renderAs('admin');
    expect(await field('email')).not.toBeNull();
    expect(await field('suppression')).toBeNull();
  });

  it("follows the host's zone, not Tokyo's, and says so in Japanese", async () => {
    process.env.TZ = 'America/New_York';
    serve([booking], { ...shown, timeZone: 'Pacific/Honolulu' });
    await renderAs('admin', featureFlagsFor('production'), 'ja');
    // 16:30 UTC is 6:30 in the morning of 1 April in Honolulu (12:30 PM in New York).
    expect((await field('created_at'))?.textContent).toContain('2026年4月1日 午前6:30');
    expect(screen.getByTestId('customer-time-zone').textContent).toBe(
      'このページの時刻はすべて Pacific/Honolulu です。',
    );
  });
});

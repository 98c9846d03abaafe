import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { INITIAL_LIST_STATE, rememberListState } from '../customerListState';
import { CustomerListPage } from './CustomerListPage';

const customer = {
  id: '0b7c2f5e-1111-4a2b-9c3d-123456789abc',
  firstName: '節子',
  lastName: '鈴木',
  fullName: '鈴木 節子',
  phone: '09012345678',
  email: 'setsuko@mail.yado.jp',
  idNumber: null,
  gender: 'female',
  dateOfBirth: null,
  age: null,
  country: 'JP',
  prefecture: null,
  city: null,
  address: null,
  emailStatus: 'active',
  emailStatusChangedAt: null,
  emailBouncedAt: null,
  unsubscribeReason: null,
  consentSource: 'booking_system',
  consentAt: '2026-04-01T00:00:00Z',
  createdAt: '2026-04-01T00:00:00Z',
  updatedAt: '2026-04-01T00:00:00Z',
  totalBookings: 0,
  totalPayments: 0,
};

/** The list answers with the one guest, or with no one for any search or filter. */
function answerList(guests: (typeof customer)[]) {
  return mockFetch((method, url) => {
    if (url.pathname !== '/v1/customers') return undefined;
    const narrowed = ['search', 'emailStatus', 'hotelId'].some((k) => url.searchParams.get(k));
    const items = narrowed ? [] : guests;
    return {
      body: { data: { items, nextCursor: null, total: items.length, totalCapped: false, timeZone: 'Asia/Tokyo' } },
    };
  });
}

const renderList = (language: 'ja' | 'en' = 'en') =>
  renderWithProviders(<CustomerListPage />, {
    path: '/customer-list',
    language,
    queryClient: signedInClient(profileFixture('hotel', 'admin')),
  });

afterEach(() => rememberListState(INITIAL_LIST_STATE));

describe('customer list with nothing to show', () => {
  it('says that no customer matches a search, and clears it back to the whole list', async () => {
    const calls = answerList([customer]);
    await renderList();
    await screen.findByText('鈴木 節子', { exact: false });
    const search = screen.getByRole('searchbox');
    fireEvent.change(search, { target: { value: 'nobody' } });
    const empty = await screen.findByTestId('empty-state', {}, { timeout: 3000 });
    expect(empty.textContent).toContain('Nothing matches');
    expect(empty.textContent).toContain('No item matches this search or these filters.');
    expect(empty.textContent).not.toContain('There is nothing here yet.');

    fireEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    await screen.findByText('鈴木 節子', { exact: false });
    expect(screen.getByRole('searchbox')).toHaveProperty('value', '');
    expect(calls.at(-1)?.url.searchParams.get('search')).toBeNull();
  });

  it('says so for a filter too, in Japanese', async () => {
    answerList([customer]);
    await renderList('ja');
    await screen.findByText('鈴木 節子', { exact: false });
    fireEvent.change(screen.getByRole('combobox', { name: 'メール配信ステータス' }), {
      target: { value: 'unsubscribed' },
    });
    await waitFor(() => expect(screen.getByTestId('empty-state').textContent).toContain('該当するものがありません'));
    expect(screen.getByTestId('empty-state').textContent).not.toContain('まだ何もありません。');
  });

  it('says there is nothing yet only while no search or filter narrows the list', async () => {
    answerList([]);
    await renderList();
    const empty = await screen.findByTestId('empty-state');
    expect(empty.textContent).toContain('There is nothing here yet.');
    expect(screen.queryByRole('button', { name: 'Clear search and filters' })).toBeNull();
  });
});

describe('customer list in a browser in another time zone than the host', () => {
  const browserZone = process.env.TZ;
  afterEach(() => {
    if (browserZone === undefined) delete process.env.TZ;
    else process.env.TZ = browserZone;
  });

  it("dates each registration on the host's day, and names the host's zone under the table", async () => {
    process.env.TZ = 'America/New_York';
    // Registered at 01:30 on 2 April in Tokyo: still 1 April in the browser's New York.
    answerList([{ ...customer, createdAt: '2026-04-01T16:30:00Z' }]);
    await renderList();
    const row = await screen.findByTestId('customer-row');
    expect(row.textContent).toContain('02 Apr 2026');
    expect(row.textContent).not.toContain('01 Apr 2026');
    expect(screen.getByTestId('customer-time-zone').textContent).toBe('Dates on this page are in Asia/Tokyo.');
  });

  it('says so in Japanese too', async () => {
    process.env.TZ = 'America/New_York';
    answerList([{ ...customer, createdAt: '2026-04-01T16:30:00Z' }]);
    await renderList('ja');
    expect((await screen.findByTestId('customer-row')).textContent).toContain('2026年4月2日');
    expect(screen.getByTestId('customer-time-zone').textContent).toBe(
      'このページの日付はすべて Asia/Tokyo の日付です。',
    );
  });
});

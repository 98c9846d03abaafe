import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { DashboardPage } from './DashboardPage';

const window = {
  timezone: 'Asia/Tokyo',
  from: '2026-11-18',
  to: '2026-11-24',
  previousFrom: '2026-11-11',
  previousTo: '2026-11-17',
};
const days = ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24'];
const zeroDay = (day: string) => ({ day, sent: 0, opened: 0, clicked: 0, bookings: 0, revenue: 0 });

const levelInfo = {
  host: {
    id: 'b1',
    level: 'brand',
    name: 'さくらホテルズ',
    address: '東京都千代田区丸の内1-1-1',
    email: 'info@sakura.example.jp',
    phone: '0312345678',
    logoUrl: null,
    timezone: 'Asia/Tokyo',
    brandName: null,
    hotelGroupName: null,
  },
  hotelGroups: [
    {
      id: 'g1',
      level: 'hotel_group',
      name: '関東エリア',
      address: null,
      email: null,
      phone: null,
      logoUrl: null,
      hotelCount: 2,
    },
  ],
  hotels: [
    {
      id: 'h1',
      level: 'hotel',
      name: 'さくらホテル 新宿',
      address: null,
      email: null,
      phone: null,
      logoUrl: null,
      hotelGroupName: '関東エリア',
    },
  ],
};
const customers = (current: number, previous: number | null) => ({
  window,
  customers: { current, previous },
  activeCustomers: { current, previous },
  unsubscribedCustomers: { current: 0, previous: previous === null ? null : 0 },
  countedAt: '2026-11-24T05:00:00Z',
  lastSync: { status: 'succeeded', finishedAt: '2026-11-23T16:02:00Z' },
  bookingConnected: true,
});
const mailed = {
  window,
  openRate: { current: 0.25, previous: 0.2 },
  clickRate: { current: 0.05, previous: null },
  bounceRate: { current: 0.031, previous: 0.012 },
  complaintRate: { current: 0.001, previous: 0.002 },
  campaignsSent: { current: 2, previous: 1 },
  campaignsFailed: { current: 0, previous: 0 },
  sent: { current: 1200, previous: 300 },
  bookings: { current: 3, previous: 0 },
  revenue: { current: 96000, previous: 0 },
  // Issue 26: what the holdouts of the week say the mails caused.
  incrementalRevenue: { value: 64000, low: 20000, high: 108000 },
  daily: days.map((day, i) =>
    i === 6 ? { day, sent: 1200, opened: 300, clicked: 60, bookings: 3, revenue: 96000 } : zeroDay(day),
  ),
  hotels: [
    { hotelId: 'h1', name: 'さくらホテル 新宿', sent: 1200, opened: 300, clicked: 60, bookings: 3, revenue: 96000 },
  ],
  nextScheduled: [
    { id: 'c9', name: 'Winter plan', sendAt: '2026-11-25T01:00:00Z', hostName: 'さくらホテル 新宿', hold: null },
  ],
};
const running = {
  scenarios: [
    {
      id: '5e0c9b7e-0000-4000-8000-000000000001',
      name: 'Birthday wishes',
      hostName: 'さくらホテル 新宿',
      startedAt: '2026-11-20T00:00:00Z',
      entered: 1234,
    },
  ],
  total: 7,
};
const quiet = {
  ...mailed,
  openRate: { current: null, previous: null },
  clickRate: { current: null, previous: null },
  bounceRate: { current: null, previous: null },
  complaintRate: { current: null, previous: null },
  daily: days.map(zeroDay),
  hotels: null,
  nextScheduled: [],
  incrementalRevenue: null,
};
const held = {
  ...quiet,
  nextScheduled: [
    {
      id: 'c7',
      name: '箱根の冬のご案内',
      sendAt: '2026-11-24T23:00:00.000Z',
      hostName: 'さくらホテルズ',
      hold: {
        reason: 'quiet_hours',
        until: '2026-11-24T23:00:00.000Z',
        localTime: '08:00',
        timeZone: 'Asia/Tokyo',
        hostName: 'さくら旅館 箱根',
        otherHosts: 0,
        waiting: 1200,
        whole: true,
      },
    },
    { id: 'c9', name: 'Winter plan', sendAt: '2026-11-25T01:00:00Z', hostName: 'さくらホテル 新宿', hold: null },
  ],
};

function serve(answers: { customers: unknown; campaigns: unknown; scenarios?: unknown }) {
  return mockFetch((method, url) => {
    if (url.pathname === '/v1/dashboard/level-info') return { body: { data: levelInfo } };
    if (url.pathname === '/v1/dashboard/customer-statistics') return { body: { data: answers.customers } };
    if (url.pathname === '/v1/dashboard/campaign-performance') return { body: { data: answers.campaigns } };
    if (url.pathname === '/v1/dashboard/running-scenarios')
      return { body: { data: answers.scenarios ?? { scenarios: [], total: 0 } } };
    return undefined;
  });
}

describe('dashboard page', () => {
  it('shows a brand admin the figures, their change, the lazily loaded chart and each hotel', async () => {
    const calls = serve({
      customers: { ...customers(1234, 1200), unsubscribedCustomers: { current: 12, previous: 4 } },
      campaigns: { ...mailed, campaignsFailed: { current: 1, previous: 0 } },
      scenarios: running,
    });
    await renderWithProviders(<DashboardPage />, { queryClient: signedInClient(profileFixture('brand', 'admin')) });
    expect((await screen.findByTestId('figure-customers-value', {}, { timeout: 15_000 })).textContent).toBe('1,234');
    expect(screen.getByTestId('figure-customers-change').textContent).toBe('+34 against the 7 days before');
    expect(screen.getByTestId('figure-customers-change').getAttribute('style') ?? '').toContain('teal');
    // More guests unsubscribed, or a campaign failed: bad news, in red.
    expect(screen.getByTestId('figure-unsubscribed-change').textContent).toBe('+8 against the 7 days before');
    expect(screen.getByTestId('figure-unsubscribed-change').getAttribute('style') ?? '').toContain('red');
    // Active customers are those a campaign can mail, and the card says so.
    expect(screen.getByTestId('figure-active').textContent).toContain('Active customers');
    expect(screen.getByTestId('figure-active-hint').textContent).toBe(
      'With an email address, not on the suppression list',
    );
    // Times in the window's zone, as its dates (not the browser's, which may be elsewhere).
    expect(screen.getByTestId('customers-counted-at').textContent).toBe('As of 24 Nov 2026, 2:00 PM');
    expect(screen.getByTestId('last-sync').textContent).toContain('24 Nov 2026, 1:02 AM');
    expect((await screen.findByTestId('figure-open-rate-value')).textContent).toBe('25.0%');
    expect(screen.getByTestId('figure-open-rate-change').textContent).toBe('+5 pt against the 7 days before');
    expect(screen.getByTestId('figure-click-rate-change').textContent).toBe('No figure for the 7 days before yet');
    // Bounces and complaints beside them (issue 25): a rise is bad news, shown in red.
    expect(screen.getByTestId('figure-bounce-rate-value').textContent).toBe('3.1%');
    expect(screen.getByTestId('figure-bounce-rate-change').textContent).toBe('+1.9 pt against the 7 days before');
    expect(screen.getByTestId('figure-bounce-rate-change').getAttribute('style') ?? '').toContain('red');
    expect(screen.getByTestId('figure-complaint-rate-value').textContent).toBe('0.1%');
    expect(screen.getByTestId('figure-campaigns-failed-change').getAttribute('style') ?? '').toContain('red');
    // Beside the attributed revenue, the incremental revenue the holdouts measured, with its margin.
    // Yen as the rest of the console writes them: ¥, not JP¥.
    expect(screen.getByTestId('revenue-total').textContent).toContain('¥96,000');
    expect(screen.getByTestId('revenue-total').textContent).not.toContain('JP¥');
    expect(screen.getByTestId('revenue-incremental').textContent).toContain(
      'Incremental, measured by holdouts: ¥64,000 (±¥44,000)',
    );
    // The chart and the per-hotel table are chunks of their own, loaded once there is something to show
    // (the chart library takes a while to load into jsdom on a busy machine).
    await screen.findByTestId('chart-daily', {}, { timeout: 15_000 });
    await screen.findByText('Daily sends, opens, clicks and bookings');
    const row = await screen.findByTestId('hotel-breakdown-row', {}, { timeout: 15_000 });
    expect(within(row).getByText('1,200')).toBeTruthy();
    expect(row.textContent).toContain('96,000');
    expect(screen.getByTestId('next-scheduled').textContent).toContain('Winter plan');
    const scenario = await within(screen.getByTestId('running-scenarios')).findByTestId('running-scenario-row');
    expect(within(scenario).getByRole('link', { name: 'Birthday wishes' }).getAttribute('href')).toBe(
      '/automations/scenario/5e0c9b7e-0000-4000-8000-000000000001',
    );
    expect(scenario.textContent).toContain('Customers entered: 1,234');
    expect(scenario.textContent).toContain('さくらホテル 新宿');
    expect(screen.getByTestId('running-scenarios-more').textContent).toBe('6 more running: see the scenario list');
    expect(screen.getByTestId('campaign-scope-note').textContent).toContain(
      'include the mails of automation scenarios',
    );
    expect(screen.getByTestId('quick-actions')).toBeTruthy();
    expect(
      (await within(screen.getByTestId('level-children')).findAllByTestId('level-child-group'))[0]!.textContent,
    ).toContain('関東エリア');
    // Only the dashboard's four blocks were asked for.
    expect(new Set(calls.map((c) => c.url.pathname))).toEqual(
      new Set([
        '/v1/dashboard/level-info',
        '/v1/dashboard/customer-statistics',
        '/v1/dashboard/campaign-performance',
        '/v1/dashboard/running-scenarios',
      ]),
    );
  }, 30_000);

  it('shows no incremental figure where no holdout was measured', async () => {
    serve({ customers: customers(1234, 1200), campaigns: { ...mailed, incrementalRevenue: null }, scenarios: running });
    await renderWithProviders(<DashboardPage />, { queryClient: signedInClient(profileFixture('brand', 'admin')) });
    expect((await screen.findByTestId('revenue-total', {}, { timeout: 15_000 })).textContent).toContain('¥96,000');
    expect(screen.queryByTestId('revenue-incremental')).toBeNull();
  }, 30_000);

  it('gives a hotel viewer the read-only empty texts, no quick actions and no chart', async () => {
    serve({ customers: customers(0, null), campaigns: quiet });
    await renderWithProviders(<DashboardPage />, { queryClient: signedInClient(profileFixture('hotel', 'viewer')) });
    const empty = await screen.findByTestId('campaign-empty', {}, { timeout: 15_000 });
    expect(empty.textContent).toContain('No campaign mail was sent in the last 7 days.');
    expect((await within(screen.getByTestId('customer-statistics')).findByTestId('empty-state')).textContent).toContain(
      'There are no customers here yet.',
    );
    expect(screen.getByTestId('figure-open-rate-value').textContent).toBe('-');
    expect(screen.getByTestId('figure-open-rate-note').textContent).toBe('No mail delivered');
    expect(screen.getByTestId('figure-bounce-rate-value').textContent).toBe('-');
    expect(screen.getByTestId('figure-bounce-rate-note').textContent).toBe('No mail sent');
    expect(screen.queryByTestId('quick-actions')).toBeNull();
    expect(screen.queryByTestId('chart-daily')).toBeNull();
    expect(screen.queryByTestId('hotel-breakdown')).toBeNull();
    expect(
      (await within(screen.getByTestId('running-scenarios')).findByText('No scenario is running.')).textContent,
    ).toBe('No scenario is running.');
  }, 30_000);

  it('says a campaign held by quiet hours waits, until when and for how many, and gives times in the named zone', async () => {
    serve({ customers: customers(0, null), campaigns: held });
    await renderWithProviders(<DashboardPage />, { queryClient: signedInClient(profileFixture('hotel', 'staff')) });
    const rows = await within(await screen.findByTestId('next-scheduled', {}, { timeout: 15_000 })).findAllByTestId(
      'next-scheduled-row',
    );
    expect(rows[0]!.getAttribute('data-held')).toBe('quiet_hours');
    expect(within(rows[0]!).getByTestId('campaign-hold').textContent).toBe(
      'Waiting for quiet hours to end: 08:00 (さくら旅館 箱根)',
    );
    expect(within(rows[0]!).getByTestId('campaign-hold-waiting').textContent).toBe('Deliveries waiting: 1,200');
    // Scheduled for 01:00 UTC: 10:00 in Tokyo, the window's zone, which the header names.
    expect(rows[1]!.textContent).toContain('25 Nov 2026, 10:00 AM');
    expect((await screen.findByText(/\(Asia\/Tokyo\)/)).textContent).toContain('Asia/Tokyo');
  }, 30_000);

  it('sends the granduser, who has no dashboard, to its first area', async () => {
    const calls = serve({ customers: customers(0, null), campaigns: quiet });
    await renderWithProviders(<DashboardPage />, {
      queryClient: signedInClient(profileFixture('grand_user', 'granduser')),
    });
    await screen.findByTestId('elsewhere');
    expect(calls).toHaveLength(0);
  });
});

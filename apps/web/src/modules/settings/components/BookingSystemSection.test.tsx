import { screen, within } from '@testing-library/react';
import type { TBookingStatus } from '@yado/contracts/booking';
import { describe, expect, it, vi } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { BookingSystemSection } from './BookingSystemSection';

// 01:00 on 4 May in Tokyo, the brand's zone: 09:00 on 3 May in Los Angeles.
const DAILY_RUN = '2026-05-03T16:00:00.000Z';

const status: TBookingStatus = {
  connection: {
    accountId: 'DBK-100234',
    accountName: 'さくらホテルズ',
    status: 'active',
    connectedAt: '2026-05-01T03:30:00.000Z',
    connectedByName: 'Hanako Sato',
    syncedUpTo: DAILY_RUN,
    hotels: [],
  },
  runs: [
    {
      id: 'r1',
      trigger: 'cron',
      status: 'succeeded',
      startedAt: DAILY_RUN,
      finishedAt: '2026-05-03T16:02:00.000Z',
      guestsRead: 0,
      reservationsRead: 0,
      customersCreated: 0,
      customersUpdated: 0,
      bookingsCreated: 0,
      bookingsUpdated: 0,
      bookingsCancelled: 0,
      skipped: 0,
      errors: [],
      resumed: false,
    },
  ],
  syncPending: false,
  schedule: { time: '01:00', timeZone: 'Asia/Tokyo' },
};

/** A browser in Los Angeles: a format that names no zone uses that one. */
function browserIn(zone: string) {
  const Real = Intl.DateTimeFormat;
  vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function inZone(
    locales?: string | string[],
    options?: Intl.DateTimeFormatOptions,
  ) {
    return new Real(locales, { ...options, timeZone: options?.timeZone ?? zone });
  } as typeof Intl.DateTimeFormat);
}

describe('BookingSystemSection', () => {
  it("shows the sync's times on the brand's clock, not the browser's", async () => {
    browserIn('America/Los_Angeles');
    mockFetch((_method, url) => (url.pathname === '/v1/booking/connection' ? { body: { data: status } } : undefined));
    await renderWithProviders(<BookingSystemSection />, {
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const connection = await screen.findByTestId('booking-connection');
    // The daily 1 AM sync reads as 1 AM, as the notice above it says.
    expect(within(screen.getByTestId('booking-sync-run')).getByText('04 May 2026, 1:00 AM')).toBeTruthy();
    expect(within(connection).getByText('04 May 2026, 1:00 AM')).toBeTruthy();
    expect(within(connection).getByText('01 May 2026, 12:30 PM')).toBeTruthy();
    expect(screen.queryByText(/03 May 2026, 9:00 AM/)).toBeNull();
    expect(screen.getByTestId('booking-time-zone').textContent).toBe('Times in this card are in Asia/Tokyo.');
  });

  it('names the guests synced without their country, whose code was no country code', async () => {
    const withErrors: TBookingStatus = {
      ...status,
      runs: [
        {
          ...status.runs[0]!,
          errors: [{ code: 'country_invalid', count: 2, examples: ['DBK-100234-G1', 'DBK-100234-G2'] }],
        },
      ],
    };
    mockFetch((_method, url) =>
      url.pathname === '/v1/booking/connection' ? { body: { data: withErrors } } : undefined,
    );
    await renderWithProviders(<BookingSystemSection />, {
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const run = await screen.findByTestId('booking-sync-run');
    const reason = within(run).getByText('2 guests with an invalid country code (synced without the country)');
    expect(reason.getAttribute('title')).toBe('DBK-100234-G1, DBK-100234-G2');
  });
});

import { screen } from '@testing-library/react';
import type { TExplanation } from '@yado/contracts/segments';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { fieldValuesQuery } from '../api/segmentsCalls';
import { ExplanationView } from './WhyDialog';

const explanation: TExplanation = {
  segmentId: 's1',
  customerId: 'c1',
  type: 'dynamic',
  in: true,
  inScope: true,
  listed: null,
  join: 'and',
  groups: [
    {
      kind: 'group',
      path: '0',
      join: 'and',
      held: true,
      bookings: {
        quantifier: 'at_least',
        count: 1,
        matched: 1,
        held: true,
        booking: {
          id: 'b1',
          hotelId: 'h1',
          hotelName: 'さくらホテル 新宿',
          bookingDate: '2026-03-20',
          checkIn: '2026-04-03',
          checkOut: '2026-04-05',
          nights: 2,
          guests: 2,
          amount: 36000,
          roomType: 'twin',
          source: 'rakuten_travel',
          status: 'checked_out',
        },
      },
      items: [
        {
          kind: 'condition',
          path: '0.0',
          field: 'bookingSource',
          operator: 'is',
          value: ['rakuten_travel', 'new_channel'],
          held: true,
          actual: 'rakuten_travel',
        },
      ],
    },
  ],
};

/** What the explanation says of the booking source: the condition, its value, the booking shown. */
async function sourceTexts(role: 'admin' | 'viewer', language: 'ja' | 'en') {
  mockFetch(() => undefined);
  const queryClient = signedInClient(profileFixture('brand', role));
  // The booking sources seen in the host's bookings, as the server lists them (a code, its label).
  // A builder's list is in hand; a reader has none.
  if (role === 'admin')
    queryClient.setQueryData(fieldValuesQuery('booking_sources').queryKey, [
      { value: 'rakuten_travel', label: 'rakuten_travel' },
      { value: 'new_channel', label: 'new_channel' },
    ]);
  await renderWithProviders(<ExplanationView explanation={explanation} />, { language, queryClient });
  const booking = (await screen.findByTestId('why-booking')).textContent ?? '';
  return { condition: screen.getByTestId('why-condition').textContent ?? '', booking };
}

describe('why dialog', () => {
  it.each(['admin', 'viewer'] as const)(
    "names booking sources in the reader's language, an unknown code as it came (%s)",
    async (role) => {
      const ja = await sourceTexts(role, 'ja');
      expect(ja.condition).toContain('楽天トラベル');
      expect(ja.condition).toContain('new_channel');
      expect(ja.condition).not.toContain('rakuten_travel');
      expect(ja.booking).toContain('楽天トラベル');
      expect(ja.booking).not.toContain('rakuten_travel');
    },
  );

  it('names them in English too', async () => {
    const en = await sourceTexts('admin', 'en');
    expect(en.condition).toContain('Booking source is Rakuten Travel');
    expect(en.condition).toContain('Their value: Rakuten Travel');
    expect(en.booking).toContain('Rakuten Travel');
    expect(en.booking).not.toContain('rakuten_travel');
  });
});

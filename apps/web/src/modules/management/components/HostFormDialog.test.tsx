import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { THost } from '@yado/contracts/management';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { HostFormDialog } from './HostFormDialog';

const hotel: THost = {
  id: 'h1',
  level: 'hotel',
  name: 'さくらホテル ホノルル',
  slug: 'sakura-honolulu',
  brandId: 'b1',
  brandName: 'さくらホテルズ',
  hotelGroupId: null,
  hotelGroupName: null,
  address: 'Kalakaua Ave, Honolulu',
  email: null,
  phone: null,
  logoUrl: '/files/logos/' + 'a'.repeat(64) + '.png',
  timezone: 'Pacific/Honolulu',
  bookingHotelCode: null,
  createdAt: '2026-11-20T00:00:00Z',
  hotelGroupCount: 0,
  hotelCount: 0,
  userCount: 0,
};

describe('the host form', () => {
  it("shows a hotel's time zone and saves the one chosen", async () => {
    const sent: Record<string, unknown>[] = [];
    mockFetch((method, url, init) => {
      if (method !== 'PUT' || url.pathname !== '/v1/hotels/h1') return undefined;
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      sent.push(body);
      return { body: { data: { ...hotel, timezone: body.timezone } } };
    });
    let saved: THost | null = null;
    await renderWithProviders(
      <HostFormDialog level="hotel" opened host={hotel} onClose={() => {}} onSaved={(h) => (saved = h)} />,
      { queryClient: signedInClient(profileFixture('brand', 'admin')) },
    );
    const form = within(await screen.findByTestId('host-form'));
    const zone = form.getByLabelText('Time zone') as HTMLInputElement;
    expect(zone.value).toBe('Pacific/Honolulu');

    fireEvent.click(zone);
    fireEvent.change(zone, { target: { value: 'Asia/Tok' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Asia/Tokyo', hidden: true }));
    expect(zone.value).toBe('Asia/Tokyo');
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).not.toBeNull());
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ name: hotel.name, timezone: 'Asia/Tokyo' });
  });
});

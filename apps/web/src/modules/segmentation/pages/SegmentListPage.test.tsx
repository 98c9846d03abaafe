import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { profileFixture, segmentFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { SegmentListPage } from './SegmentListPage';

const ID = '5f0c2a52-6c1e-4f3e-9f57-2f2f6f1f0a01';
// Made at 01:30 on 2 April and counted at 00:30 on 12 May in Tokyo: each the day before in New York.
const dated = segmentFixture(ID, {
  name: 'Repeat guests',
  createdAt: '2026-04-01T16:30:00Z',
  audience: 12,
  audienceCountedAt: '2026-05-11T15:30:00Z',
});

function serve(timeZone: string) {
  return mockFetch((method, url) => {
    if (method === 'GET' && url.pathname === '/v1/segments')
      return { body: { data: { items: [dated], total: 1, page: 1, pageSize: 20, timeZone } } };
    if (url.pathname.startsWith('/v1/locations/')) return { body: { data: [] } };
    return undefined;
  });
}

const renderIn = (language: 'ja' | 'en') =>
  renderWithProviders(<SegmentListPage />, {
    path: '/segmentation',
    language,
    queryClient: signedInClient(profileFixture('brand', 'admin')),
  });

describe('the segment list in a browser in another time zone than the host', () => {
  const browserZone = process.env.TZ;
  afterEach(() => {
    if (browserZone === undefined) delete process.env.TZ;
    else process.env.TZ = browserZone;
  });

  it("shows when each segment was made and counted in the host's time zone, and names it", async () => {
    process.env.TZ = 'America/New_York';
    serve('Asia/Tokyo');
    await renderIn('en');
    const row = await screen.findByTestId('segment-row');
    expect(row.textContent).toContain('02 Apr 2026');
    expect(row.textContent).not.toContain('01 Apr 2026');
    expect(row.textContent).toContain('counted 12 May 2026, 12:30 AM');
    expect(screen.getByTestId('segment-time-zone').textContent).toBe('Times on this page are in Asia/Tokyo.');
  });

  it("follows the host's zone, not Tokyo's, and says so in Japanese", async () => {
    process.env.TZ = 'America/New_York';
    serve('Pacific/Honolulu');
    await renderIn('ja');
    const row = await screen.findByTestId('segment-row');
    // 15:30 UTC on 11 May is 5:30 in the morning of 11 May in Honolulu (11:30 AM in New York).
    expect(row.textContent).toContain('2026年5月11日 午前5:30');
    expect(screen.getByTestId('segment-time-zone').textContent).toBe(
      'このページの時刻はすべて Pacific/Honolulu です。',
    );
  });
});

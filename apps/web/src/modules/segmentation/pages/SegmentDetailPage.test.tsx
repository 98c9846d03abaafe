import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { profileFixture, segmentFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { renderSegmentPage } from '../test/segmentPages';
import { SegmentDetailPage } from './SegmentDetailPage';

const ID = '5f0c2a52-6c1e-4f3e-9f57-2f2f6f1f0a01';
const segment = segmentFixture(ID, { createdBy: { id: 'u1', name: '佐藤 花子' } });

function serve() {
  return mockFetch((method, url) => {
    if (method === 'GET' && url.pathname === `/v1/segments/${ID}`) return { body: { data: segment } };
    if (url.pathname === `/v1/segments/${ID}/members`) {
      return { body: { data: { items: [], nextCursor: null, total: 0, totalCapped: false, timeZone: 'Asia/Tokyo' } } };
    }
    if (method === 'DELETE' && url.pathname === `/v1/segments/${ID}`) {
      return {
        status: 409,
        body: {
          error: {
            code: 'segment_in_use',
            message:
              'This segment is used by a campaign that has not finished or by a running scenario and cannot be deleted.',
            fields: { 'uses.0': { code: 'campaign', message: 'Campaign “Autumn sale” (scheduled)' } },
          },
        },
      };
    }
    if (url.pathname === `/v1/segments/${ID}/uses`) {
      return {
        body: {
          data: [
            { kind: 'campaign', id: 'c1', name: 'Autumn sale', state: 'scheduled', blocksDelete: true },
            { kind: 'campaign', id: 'c2', name: 'Old draft', state: 'draft', blocksDelete: false },
          ],
        },
      };
    }
    if (url.pathname.startsWith('/v1/locations/')) return { body: { data: [] } };
    return undefined;
  });
}

describe('segment detail', () => {
  it('names the campaign that stops a delete, after the confirmation', async () => {
    serve();
    await renderSegmentPage(<SegmentDetailPage />, ID, profileFixture('brand', 'admin'));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    const refusal = await screen.findByTestId('segment-in-use');
    expect(refusal.textContent).toContain(
      'This segment is used by a campaign that has not finished or by a running scenario and cannot be deleted.',
    );
    await within(refusal).findByText('Campaign: Autumn sale');
    // No server code in the user's text (it showed "(scheduled)", in the Japanese console too).
    expect(refusal.textContent).not.toContain('scheduled');
    expect(refusal.textContent).not.toContain('Old draft');
  });

  it('shows each group\'s audience at every level in the filter summary after "Count now"', async () => {
    const dynamic = segmentFixture(ID, {
      type: 'dynamic',
      filter: {
        version: 1,
        join: 'and',
        groups: [
          {
            kind: 'group',
            join: 'or',
            items: [
              { kind: 'condition', field: 'lastName', operator: 'is', value: 'Sato' },
              {
                kind: 'group',
                join: 'and',
                items: [{ kind: 'condition', field: 'age', operator: 'greater_than', value: 30 }],
              },
            ],
          },
        ],
      },
    });
    const recounts: string[] = [];
    mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === `/v1/segments/${ID}`) return { body: { data: dynamic } };
      if (method === 'POST' && url.pathname === `/v1/segments/${ID}/count`) {
        recounts.push(url.pathname);
        return {
          body: {
            data: {
              total: 40,
              groups: [
                { index: 0, path: 'groups.0', id: null, count: 40 },
                { index: 1, path: 'groups.0.items.1', id: null, count: 25 },
              ],
              countedAt: '2026-11-24T01:00:00Z',
            },
          },
        };
      }
      if (url.pathname === `/v1/segments/${ID}/members`)
        return {
          body: { data: { items: [], nextCursor: null, total: 0, totalCapped: false, timeZone: 'Asia/Tokyo' } },
        };
      if (url.pathname.startsWith('/v1/locations/')) return { body: { data: [] } };
      return undefined;
    });
    await renderSegmentPage(<SegmentDetailPage />, ID, profileFixture('brand', 'admin'));
    fireEvent.click(await screen.findByTestId('segment-recount'));
    await screen.findByText('40');
    expect(recounts).toHaveLength(1);
    fireEvent.click(screen.getByRole('tab', { name: 'Filter' }));
    const badges = await screen.findAllByTestId('summary-group-count');
    expect(badges.map((b) => b.textContent)).toEqual(['40 in this group', '25 in this group']);
  });

  it('asks for a copy named in the console language, whatever the profile says', async () => {
    const duplicates: unknown[] = [];
    mockFetch((method, url, init) => {
      if (method === 'POST' && url.pathname === `/v1/segments/${ID}/duplicate`) {
        duplicates.push(JSON.parse(String(init.body)));
        return {
          body: { data: segmentFixture('5f0c2a52-6c1e-4f3e-9f57-2f2f6f1f0a02', { name: 'Summer guests (copy)' }) },
        };
      }
      if (method === 'GET' && url.pathname === `/v1/segments/${ID}`) return { body: { data: segment } };
      if (url.pathname.endsWith('/members'))
        return {
          body: { data: { items: [], nextCursor: null, total: 0, totalCapped: false, timeZone: 'Asia/Tokyo' } },
        };
      if (url.pathname.endsWith('/uses')) return { body: { data: [] } };
      if (url.pathname.startsWith('/v1/locations/')) return { body: { data: [] } };
      return undefined;
    });
    await renderSegmentPage(<SegmentDetailPage />, ID, profileFixture('brand', 'admin', { language: 'ja' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Duplicate' }));
    await waitFor(() => expect(duplicates).toEqual([{ language: 'en' }]));
  });

  it('offers a viewer neither changes nor member changes', async () => {
    serve();
    await renderSegmentPage(<SegmentDetailPage />, ID, profileFixture('brand', 'viewer'));
    await screen.findByRole('heading', { name: 'Summer guests' });
    for (const name of ['Delete', 'Duplicate', 'Export CSV']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByTestId('member-actions')).toBeNull();
  });

  it('offers the granduser at the platform no Duplicate: a copy is a create, refused there', async () => {
    serve();
    await renderSegmentPage(<SegmentDetailPage />, ID, profileFixture('grand_user', 'granduser'));
    await screen.findByRole('heading', { name: 'Summer guests' });
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Duplicate' })).toBeNull();
  });
});

describe('segment members in a browser in another time zone than the host', () => {
  const browserZone = process.env.TZ;
  afterEach(() => {
    if (browserZone === undefined) delete process.env.TZ;
    else process.env.TZ = browserZone;
  });

  // Registered at 01:30 on 2 April in Tokyo: still 1 April in the browser's New York.
  const member = {
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
    consentAt: '2026-04-01T16:30:00Z',
    createdAt: '2026-04-01T16:30:00Z',
    updatedAt: '2026-04-01T16:30:00Z',
    totalBookings: 0,
    totalPayments: 0,
  };
  function serveMember() {
    return mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === `/v1/segments/${ID}`) return { body: { data: segment } };
      if (url.pathname === `/v1/segments/${ID}/members`)
        return {
          body: { data: { items: [member], nextCursor: null, total: 1, totalCapped: false, timeZone: 'Asia/Tokyo' } },
        };
      if (url.pathname === `/v1/segments/${ID}/uses`) return { body: { data: [] } };
      if (url.pathname.startsWith('/v1/locations/')) return { body: { data: [] } };
      return undefined;
    });
  }
  const renderIn = (language: 'ja' | 'en') =>
    renderWithProviders(<SegmentDetailPage />, {
      path: `/segmentation/${ID}`,
      pattern: '/segmentation/:id',
      language,
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });

  it("dates each member's registration on the host's day, and names the host's zone under the table", async () => {
    process.env.TZ = 'America/New_York';
    serveMember();
    await renderIn('en');
    const row = await screen.findByTestId('member-row');
    expect(row.textContent).toContain('02 Apr 2026');
    expect(row.textContent).not.toContain('01 Apr 2026');
    expect(screen.getByTestId('member-time-zone').textContent).toBe('Dates in this member list are in Asia/Tokyo.');
  });

  // Made at 01:30 on 2 April, changed at 00:05 on 11 May, counted at 09:00 on 12 May in Tokyo:
  // each the day before in New York.
  const dated = segmentFixture(ID, {
    createdAt: '2026-04-01T16:30:00Z',
    createdBy: { id: 'u1', name: '佐藤 花子' },
    updatedAt: '2026-05-10T15:05:00Z',
    audienceCountedAt: '2026-05-12T00:00:00Z',
  });
  function serveDated(timeZone: string) {
    return mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === `/v1/segments/${ID}`) return { body: { data: dated } };
      if (url.pathname === `/v1/segments/${ID}/members`)
        return { body: { data: { items: [], nextCursor: null, total: 0, totalCapped: false, timeZone } } };
      if (url.pathname.startsWith('/v1/locations/')) return { body: { data: [] } };
      return undefined;
    });
  }
  const fact = async (key: string) =>
    (await screen.findByTestId('segment-facts')).querySelector(`[data-field="${key}"]`)?.textContent;

  it("shows when the segment was made, changed and counted in the host's time zone, and names it", async () => {
    process.env.TZ = 'America/New_York';
    serveDated('Asia/Tokyo');
    await renderIn('en');
    expect(await fact('created')).toBe('Created02 Apr 2026, 1:30 AM by 佐藤 花子');
    expect(await fact('updated')).toBe('Updated11 May 2026, 12:05 AM');
    expect(await fact('audience')).toContain('12 May 2026, 9:00 AM');
    expect(screen.getByTestId('segment-time-zone').textContent).toBe('Times on this page are in Asia/Tokyo.');
  });

  it("follows the host's zone, not Tokyo's, and says so in Japanese", async () => {
    process.env.TZ = 'America/New_York';
    serveDated('Pacific/Honolulu');
    await renderIn('ja');
    // 16:30 UTC is 6:30 in the morning of 1 April in Honolulu (12:30 PM in New York).
    expect(await fact('created')).toBe('作成2026年4月1日 午前6:30（佐藤 花子）');
    expect(screen.getByTestId('segment-time-zone').textContent).toBe(
      'このページの時刻はすべて Pacific/Honolulu です。',
    );
  });

  it('says so in Japanese too', async () => {
    process.env.TZ = 'America/New_York';
    serveMember();
    await renderIn('ja');
    expect((await screen.findByTestId('member-row')).textContent).toContain('2026年4月2日');
    expect(screen.getByTestId('member-time-zone').textContent).toBe(
      'このメンバー一覧の日付はすべて Asia/Tokyo の日付です。',
    );
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CAMPAIGN_LIST_STATUSES, listStatusOf, type TCampaign } from '@yado/contracts/campaigns';
import { describe, expect, it } from 'vitest';
import { campaignFixture, profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { currentSnackbars } from '../../ui/components/snackbarStore';
import { CampaignListPage } from './CampaignListPage';

const held: TCampaign = campaignFixture(
  {
    id: '6f1c2d3e-0000-4000-8000-000000000002',
    name: '箱根の冬のご案内',
    status: 'pending',
    schedule: { kind: 'now', localTime: null, timeZone: null },
    sendAt: '2026-11-24T12:00:00.000Z',
    startedAt: '2026-11-24T12:00:00.000Z',
    hold: {
      reason: 'quiet_hours',
      until: '2026-11-24T23:00:00.000Z',
      localTime: '08:00',
      timeZone: 'Asia/Tokyo',
      hostName: 'さくら旅館 箱根',
      otherHosts: 0,
      waiting: 120,
      whole: true,
    },
    scope: 'own_guests',
    editable: false,
    updatedAt: '2026-11-24T12:00:00.000Z',
  },
  { audience: 120, queued: 120 },
);

/** The campaign list of one campaign, as `profile` sees it. */
async function showList(campaign: TCampaign, profile: ReturnType<typeof profileFixture>) {
  const byStatus = Object.fromEntries(CAMPAIGN_LIST_STATUSES.map((status) => [status, 0]));
  const calls = mockFetch((method, url) =>
    url.pathname === '/v1/campaigns'
      ? {
          body: {
            data: {
              items: [campaign],
              total: 1,
              page: 1,
              pageSize: 20,
              headline: {
                byStatus: { ...byStatus, [listStatusOf(campaign)]: 1 },
                sent: campaign.statistics.sent,
                failed: campaign.statistics.failed,
                skipped: 0,
              },
            },
          },
        }
      : undefined,
  );
  await renderWithProviders(<CampaignListPage />, { path: '/campaign', queryClient: signedInClient(profile) });
  return calls;
}

describe('campaign list', () => {
  it("says a campaign held by quiet hours is waiting, not sending, and offers a hotel its brand's campaign to read only", async () => {
    await showList(held, profileFixture('hotel', 'staff'));
    const row = await screen.findByTestId('campaign-row', {}, { timeout: 15_000 });
    expect(within(row).getByTestId('campaign-status').textContent).toBe('Waiting');
    expect(within(row).getByTestId('campaign-hold').textContent).toBe(
      'Waiting for quiet hours to end: 08:00 (さくら旅館 箱根)',
    );
    expect(within(row).getByTestId('campaign-hold-waiting').textContent).toBe('Deliveries waiting: 120');
    // One zone for the page, named: the send time is Tokyo's (9 PM), whatever the browser's zone.
    expect(within(row).getByTestId('campaign-send-time').textContent).toBe('24 Nov 2026, 9:00 PM');
    expect(screen.getByTestId('campaign-time-zone').textContent).toBe('Times on this page are in Asia/Tokyo.');
    expect(within(row).getByRole('link', { name: '箱根の冬のご案内' }).getAttribute('href')).toBe(
      `/campaign/${held.id}`,
    );
  }, 30_000);

  it('says a paused campaign is paused, by whom, and no quiet hours end (the server reports no hold for it)', async () => {
    const paused: TCampaign = {
      ...held,
      hold: null,
      paused: { at: '2026-11-24T12:05:00.000Z', by: { id: 'u1', name: '佐藤 花子' } },
    };
    await showList(paused, profileFixture('brand', 'admin'));
    const row = await screen.findByTestId('campaign-row', {}, { timeout: 15_000 });
    expect(within(row).getByTestId('campaign-status').textContent).toBe('Paused');
    expect(within(row).queryByTestId('campaign-hold')).toBeNull();
    expect(within(row).getByTestId('campaign-paused').textContent).toBe('Paused by 佐藤 花子 at 24 Nov 2026, 9:05 PM');
  }, 30_000);

  it('offers a status filter option for each badge the list shows, Paused and Waiting apart from Pending, and asks the server for the paused ones', async () => {
    const paused: TCampaign = { ...held, hold: null, paused: { at: '2026-11-24T12:05:00.000Z', by: null } };
    const calls = await showList(paused, profileFixture('brand', 'admin'));
    const row = await screen.findByTestId('campaign-row', {}, { timeout: 15_000 });
    const select = screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement;
    await waitFor(() => expect(select.options[5]?.textContent).toBe('Paused (1)'));
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['', 'All statuses'],
      ['draft', 'Draft (0)'],
      ['scheduled', 'Scheduled (0)'],
      ['pending', 'Pending (0)'],
      ['waiting', 'Waiting (0)'],
      ['paused', 'Paused (1)'],
      ['sent', 'Sent (0)'],
      ['failed', 'Failed (0)'],
      ['cancelled', 'Cancelled (0)'],
    ]);
    // The paused campaign's badge is the text of the option that finds it.
    expect(within(row).getByTestId('campaign-status').textContent).toBe('Paused');

    fireEvent.change(select, { target: { value: 'paused' } });
    await waitFor(() =>
      expect(
        calls.some((c) => c.url.pathname === '/v1/campaigns' && c.url.searchParams.get('status') === 'paused'),
      ).toBe(true),
    );
    // The list remembers its filter: leave it as found for the next tests.
    fireEvent.change(select, { target: { value: '' } });
  }, 30_000);

  it('keeps each figure whole on its line (sent, failed, skipped: the audience whole), a line breaking only between them', async () => {
    const sent: TCampaign = campaignFixture(
      { id: '6f1c2d3e-0000-4000-8000-000000000003', name: '冬のタイムセール', status: 'sent', hold: null },
      { audience: 1759, sent: 1751, failed: 4, skipped: 4, openRate: 0.323, clickRate: 0.071 },
    );
    await showList(sent, profileFixture('brand', 'admin'));
    const row = await screen.findByTestId('campaign-row', {}, { timeout: 15_000 });
    const figures = [...within(row).getByTestId('campaign-headline').querySelectorAll('span')];
    expect(figures.map((f) => [f.textContent, f.style.whiteSpace])).toEqual([
      ['Sent 1,751', 'nowrap'],
      ['Failed 4', 'nowrap'],
      ['Skipped 4', 'nowrap'],
      ['Open 32.3%', 'nowrap'],
      ['Click 7.1%', 'nowrap'],
    ]);
  }, 30_000);
});

describe('campaign list send time', () => {
  it('says a draft is not scheduled, even one taken back from a schedule or with a time planned', async () => {
    const draft: TCampaign = campaignFixture({
      id: '6f1c2d3e-0000-4000-8000-000000000004',
      status: 'draft',
      schedule: { kind: 'at', localTime: '2099-12-24T18:00', timeZone: 'Asia/Tokyo' },
      sendAt: '2099-12-24T09:00:00.000Z',
    });
    await showList(draft, profileFixture('brand', 'admin'));
    const row = await screen.findByTestId('campaign-row', {}, { timeout: 15_000 });
    expect(within(row).getByTestId('campaign-send-time').textContent).toBe('Not scheduled');
  }, 30_000);
});

describe('campaign list send now', () => {
  it('says in the quiet hours, in the confirmation and the toast, when the mails will go', async () => {
    const draft: TCampaign = campaignFixture({
      id: '6f1c2d3e-0000-4000-8000-000000000005',
      name: '冬のご案内',
      status: 'draft',
      subject: '冬のご案内',
      senderEmail: 'info@sakura-hotels.example.jp',
      recipients: { segmentIds: ['s1'], excludeSegmentIds: [] },
      templateId: 't1',
      hostId: 'brand',
    });
    const sent: string[] = [];
    mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === '/v1/campaigns')
        return {
          body: {
            data: {
              items: [draft],
              total: 1,
              page: 1,
              pageSize: 20,
              headline: {
                byStatus: {
                  draft: 1,
                  scheduled: 0,
                  pending: 0,
                  waiting: 0,
                  paused: 0,
                  sent: 0,
                  failed: 0,
                  cancelled: 0,
                },
                sent: 0,
                failed: 0,
                skipped: 0,
              },
            },
          },
        };
      if (method === 'POST' && url.pathname === '/v1/campaigns/quiet-hours')
        return {
          body: {
            data: {
              sendAt: '2026-11-26T13:00:00.000Z',
              inQuietHours: true,
              quietHours: { start: '21:00', end: '08:00', timeZone: 'Asia/Tokyo' },
              deferredTo: '2026-11-26T23:00:00.000Z',
            },
          },
        };
      if (method === 'POST' && url.pathname === `/v1/campaigns/${draft.id}/send-now`) {
        sent.push(draft.id);
        return { body: { data: { ...draft, status: 'scheduled' } } };
      }
      return undefined;
    });
    await renderWithProviders(<CampaignListPage />, {
      path: '/campaign',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const row = await screen.findByTestId('campaign-row', {}, { timeout: 15_000 });
    fireEvent.click(within(row).getByTestId('campaign-menu'));
    fireEvent.click(await screen.findByTestId('campaign-action-send_now'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(dialog.textContent).toContain(
        'It is quiet hours now: “冬のご案内” will be held and sent to its recipients when they end, 27 Nov 2026, 8:00 AM (Asia/Tokyo). This cannot be undone.',
      ),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(sent).toEqual([draft.id]));
    await waitFor(() =>
      expect(currentSnackbars().map((bar) => bar.text)).toContain(
        'Campaign confirmed: held by the quiet hours, it goes out 27 Nov 2026, 8:00 AM (Asia/Tokyo)',
      ),
    );
  }, 30_000);
});

describe('campaign list duplicate', () => {
  // The console's language, not the profile's: the copy is named in the language the user reads.
  it.each([
    ['en', 'ja', 'Campaign duplicated as “冬のご案内 (copy)”'],
    ['ja', 'en', 'キャンペーンを「冬のご案内（コピー）」として複製しました'],
  ] as const)(
    'asks the server for a copy named in the console language (%s), whatever the profile says (%s)',
    async (language, profileLanguage, toast) => {
      const draft: TCampaign = campaignFixture({
        id: '6f1c2d3e-0000-4000-8000-000000000006',
        name: '冬のご案内',
        status: 'draft',
        hostId: 'brand',
      });
      const asked: unknown[] = [];
      mockFetch((method, url, init) => {
        if (method === 'GET' && url.pathname === '/v1/campaigns')
          return {
            body: {
              data: {
                items: [draft],
                total: 1,
                page: 1,
                pageSize: 20,
                headline: {
                  byStatus: Object.fromEntries(CAMPAIGN_LIST_STATUSES.map((s) => [s, s === 'draft' ? 1 : 0])),
                  sent: 0,
                  failed: 0,
                  skipped: 0,
                },
              },
            },
          };
        if (method === 'POST' && url.pathname === `/v1/campaigns/${draft.id}/duplicate`) {
          const body = JSON.parse(String(init.body)) as { language?: string };
          asked.push(body);
          const name = body.language === 'ja' ? '冬のご案内（コピー）' : '冬のご案内 (copy)';
          return { body: { data: { ...draft, id: '6f1c2d3e-0000-4000-8000-000000000007', name } } };
        }
        return undefined;
      });
      await renderWithProviders(<CampaignListPage />, {
        path: '/campaign',
        language,
        queryClient: signedInClient(profileFixture('brand', 'admin', { language: profileLanguage })),
      });
      const row = await screen.findByTestId('campaign-row', {}, { timeout: 15_000 });
      fireEvent.click(within(row).getByTestId('campaign-menu'));
      fireEvent.click(await screen.findByTestId('campaign-action-duplicate'));
      await waitFor(() => expect(asked).toEqual([{ language }]));
      await waitFor(() => expect(currentSnackbars().map((bar) => bar.text)).toContain(toast));
    },
    30_000,
  );
});

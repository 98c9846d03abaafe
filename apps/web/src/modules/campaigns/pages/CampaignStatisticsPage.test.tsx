import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TCampaign } from '@yado/contracts/campaigns';
import type { TProtectionWarning } from '@yado/contracts/deliverability';
import type { TRecipient } from '@yado/contracts/tracking';
import { ratesOf } from '@yado/contracts/tracking';
import { describe, expect, it } from 'vitest';
import type { TExperimentReport } from '@yado/contracts/experiments';
import { campaignFixture, experimentReportFixture, profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { formatRate } from '../components/numbers';
import { CampaignStatisticsPage } from './CampaignStatisticsPage';

const ID = '6f1c2d3e-0000-4000-8000-000000000001';
const counters = {
  sent: 2,
  delivered: 2,
  failed: 0,
  skipped: 0,
  bounced: 0,
  hardBounces: 1,
  softBounces: 0,
  complaints: 1,
  opens: 1,
  uniqueOpens: 1,
  machineOpens: 0,
  clicks: 0,
  uniqueClicks: 0,
  unsubscribes: 0,
  conversions: 0,
  revenue: 0,
};

/** A brand's campaign as the hotel さくらホテル 新宿 reads it: its own guests, two of them waiting for quiet hours. */
const campaign: TCampaign = campaignFixture(
  {
    id: ID,
    status: 'pending',
    schedule: { kind: 'now', localTime: null, timeZone: null },
    sendAt: '2026-11-24T12:00:00.000Z',
    startedAt: '2026-11-24T12:00:00.000Z',
    hold: {
      reason: 'quiet_hours',
      until: '2026-11-24T23:00:00.000Z',
      localTime: '08:00',
      timeZone: 'Asia/Tokyo',
      hostName: 'さくらホテル 新宿',
      otherHosts: 0,
      waiting: 2,
      whole: true,
    },
    scope: 'own_guests',
    editable: false,
    updatedAt: '2026-11-24T12:00:00.000Z',
  },
  { audience: 4, queued: 2, sent: 2, opened: 1, clicked: 0, conversions: 0, openRate: 0.5, clickRate: 0 },
);

const recipient = (deliveryId: string, name: string, possibleRepeat: boolean) => ({
  deliveryId,
  customerId: `u-${deliveryId}`,
  name,
  email: `${deliveryId}@guest.example.jp`,
  status: 'sent' as TRecipient['status'],
  skipReason: null as TRecipient['skipReason'],
  sentAt: '2026-11-24T12:00:00.000Z' as string | null,
  error: null as string | null,
  openedAt: null,
  clickedAt: null,
  possibleRepeat,
  feedback: null as TRecipient['feedback'],
  events: [],
});

function serve(
  answer: TCampaign | null,
  recipients = [recipient('d1', '山田 花子', false)],
  experiment: () => TExperimentReport = experimentReportFixture,
  pick?: () => unknown,
  warning: TProtectionWarning | null = null,
) {
  return mockFetch((method, url) => {
    if (!answer) return undefined;
    if (pick && method === 'POST' && url.pathname === `/v1/campaigns/${ID}/experiment/winner`)
      return { body: { data: pick() } };
    if (url.pathname === `/v1/campaigns/${ID}/experiment`) return { body: { data: experiment() } };
    if (method === 'POST' && url.pathname === `/v1/campaigns/${ID}/cancel`)
      return { body: { data: { ...answer, status: 'cancelled', paused: null } } };
    if (method === 'POST' && url.pathname === `/v1/campaigns/${ID}/resume`)
      return { body: { data: { ...answer, paused: null } } };
    if (url.pathname === `/v1/campaigns/${ID}`) return { body: { data: answer } };
    if (url.pathname === `/v1/campaigns/${ID}/statistics`)
      return {
        body: {
          data: {
            campaignId: ID,
            totals: counters,
            unopened: 1,
            rates: ratesOf(counters),
            updatedAt: null,
            warning,
          },
        },
      };
    if (url.pathname === `/v1/campaigns/${ID}/statistics/hotels`)
      return {
        body: { data: { hotels: [{ ...counters, hostId: 'h1', hostName: 'さくらホテル 新宿', level: 'hotel' }] } },
      };
    if (url.pathname === `/v1/campaigns/${ID}/recipients`)
      return {
        body: {
          data: {
            items: recipients.filter(
              (r) =>
                (url.searchParams.get('possibleRepeats') !== 'true' || r.possibleRepeat) &&
                (!url.searchParams.get('feedback') || r.feedback?.kind === url.searchParams.get('feedback')),
            ),
            nextCursor: null,
          },
        },
      };
    return undefined;
  });
}

const render = (role: 'staff' | 'viewer' = 'staff', level: 'hotel' | 'brand' = 'hotel') =>
  renderWithProviders(<CampaignStatisticsPage />, {
    path: `/campaign/${ID}`,
    pattern: '/campaign/:id',
    queryClient: signedInClient(profileFixture(level, level === 'brand' ? 'admin' : role)),
  });

describe('campaign statistics page', () => {
  it("says a campaign held by quiet hours waits, shows a brand's campaign for the hotel's own guests, in one named zone", async () => {
    const calls = serve(campaign);
    await render();
    const title = await screen.findByTestId('campaign-title', {}, { timeout: 15_000 });
    expect(title.textContent).toContain('冬のご案内');
    expect(screen.getByTestId('campaign-status').textContent).toBe('Waiting');
    expect(screen.getByTestId('campaign-hold').textContent).toBe(
      'Waiting for quiet hours to end: 08:00 (さくらホテル 新宿)',
    );
    expect(screen.getByTestId('campaign-hold-waiting').textContent).toBe('Deliveries waiting: 2');
    expect(screen.getByTestId('campaign-time-zone').textContent).toBe('Times on this page are in Asia/Tokyo.');
    expect(screen.getByTestId('campaign-own-guests').textContent).toContain('This is a campaign of さくらホテルズ.');
    // Read only: not even a copy (its segments are the brand's).
    expect(screen.queryByRole('button', { name: 'Duplicate' })).toBeNull();
    // 12:00 UTC is 9:00 PM in Tokyo, the page's zone.
    const recipient = await screen.findByTestId('campaign-recipient');
    expect(recipient.textContent).toContain('24 Nov 2026, 9:00 PM');
    expect(within(await screen.findByTestId('campaign-hotels')).getAllByTestId('campaign-hotel')).toHaveLength(1);
    expect((await screen.findByTestId('stat-sent-value')).textContent).toBe('2');
    // Bounces and complaints with their rates: of the mails handed to the relay (sent and failed), and of delivered (issue 25).
    expect(screen.getByTestId('stat-hard-bounces-value').textContent).toBe('1');
    expect(screen.getByTestId('stat-hard-bounces').textContent).toContain(
      `${formatRate(0.5, 'en')} of mails handed to the relay`,
    );
    expect(screen.getByTestId('stat-soft-bounces-value').textContent).toBe('0');
    expect(screen.getByTestId('stat-complaints-value').textContent).toBe('1');
    expect(screen.getByTestId('stat-complaints').textContent).toContain(`${formatRate(0.5, 'en')} of delivered`);
    // The series and the links are the whole campaign's: not asked for, not shown.
    const asked = calls.map((c) => c.url.pathname);
    expect(asked).not.toContain(`/v1/campaigns/${ID}/statistics/series`);
    expect(asked).not.toContain(`/v1/campaigns/${ID}/statistics/links`);
    expect(screen.queryByTestId('campaign-links')).toBeNull();
  }, 30_000);

  it('names the zone of a hotel whose quiet hours are kept in another zone, and says "Sending" while others still go', async () => {
    serve({
      ...campaign,
      scope: 'campaign',
      hold: { ...campaign.hold!, timeZone: 'Pacific/Honolulu', hostName: 'Aloha Inn', otherHosts: 2, whole: false },
    });
    await render();
    await screen.findByTestId('campaign-title', {}, { timeout: 15_000 });
    expect(screen.getByTestId('campaign-status').textContent).toBe('Pending');
    expect(screen.getByTestId('campaign-hold').textContent).toBe(
      'Waiting for quiet hours to end: 08:00 Pacific/Honolulu (Aloha Inn and 2 more)',
    );
  }, 30_000);

  it('says a paused campaign is paused, not waiting, and names no quiet hours end while paused', async () => {
    serve({
      ...campaign,
      scope: 'campaign',
      editable: true,
      hold: null,
      paused: { at: '2026-11-24T12:05:00.000Z', by: { id: 'u1', name: '佐藤 花子' } },
    });
    await render('staff', 'brand');
    await screen.findByTestId('campaign-title', {}, { timeout: 15_000 });
    expect(screen.getByTestId('campaign-status').textContent).toBe('Paused');
    expect(screen.queryByTestId('campaign-hold')).toBeNull();
    expect(screen.getByTestId('campaign-paused').textContent).toBe('Paused by 佐藤 花子 at 24 Nov 2026, 9:05 PM');
  }, 30_000);

  it('offers a copy to a brand admin, and none to the granduser at the platform (a copy is a create, refused there)', async () => {
    const own = { ...campaign, scope: 'campaign' as const, editable: true, hold: null };
    for (const [level, role, offered] of [
      ['brand', 'admin', true],
      ['grand_user', 'granduser', false],
    ] as const) {
      serve(own);
      const { unmount } = await renderWithProviders(<CampaignStatisticsPage />, {
        path: `/campaign/${ID}`,
        pattern: '/campaign/:id',
        queryClient: signedInClient(profileFixture(level, role)),
      });
      await screen.findByTestId('campaign-title', {}, { timeout: 15_000 });
      expect(screen.queryByRole('button', { name: 'Duplicate' }) !== null, level).toBe(offered);
      unmount();
    }
  }, 30_000);

  describe('a scheduled campaign', () => {
    // 10:30 PM in Tokyo, inside quiet hours of 21:00–08:00: it goes out at 8:00 AM the next day.
    const scheduled: TCampaign = {
      ...campaign,
      status: 'scheduled',
      schedule: { kind: 'at', localTime: '2026-11-24T22:30', timeZone: 'Asia/Tokyo' },
      sendAt: '2026-11-24T13:30:00.000Z',
      startedAt: null,
      hold: null,
      scheduledHold: {
        quietHours: { start: '21:00', end: '08:00', timeZone: 'Asia/Tokyo' },
        until: '2026-11-24T23:00:00.000Z',
      },
      scope: 'campaign',
      editable: true,
    };
    const serveScheduled = (data: TCampaign) =>
      mockFetch((_method, url) => (url.pathname === `/v1/campaigns/${ID}` ? { body: { data } } : undefined));

    // The server works the hold out for every reader: a viewer, who may not ask the quiet-hours
    // check (it needs build rights), reads it too.
    it.each([
      ['a brand admin', 'staff', 'brand'],
      ['a hotel viewer', 'viewer', 'hotel'],
    ] as const)(
      'says to %s when it is due, and when it goes out when that falls in the quiet hours',
      async (_who, role, level) => {
        const calls = serveScheduled(scheduled);
        await render(role, level);
        expect((await screen.findByTestId('campaign-send-at', {}, { timeout: 15_000 })).textContent).toBe(
          'Scheduled for 24 Nov 2026, 10:30 PM.',
        );
        expect((await screen.findByTestId('campaign-send-at-held')).textContent).toBe(
          'This time falls in the quiet hours (21:00–08:00, Asia/Tokyo): it goes out 25 Nov 2026, 8:00 AM, when they end.',
        );
        expect(calls.some((c) => c.url.pathname === '/v1/campaigns/quiet-hours')).toBe(false);
        expect(screen.getByTestId('campaign-not-sent')).toBeTruthy();
      },
      30_000,
    );

    it('says only when it is due when that is outside the quiet hours', async () => {
      serveScheduled({ ...scheduled, scheduledHold: null });
      await render('viewer');
      expect((await screen.findByTestId('campaign-send-at', {}, { timeout: 15_000 })).textContent).toBe(
        'Scheduled for 24 Nov 2026, 10:30 PM.',
      );
      expect(screen.queryByTestId('campaign-send-at-held')).toBeNull();
    }, 30_000);
  });

  it('marks the recipients who may have received the mail twice, and lists only them when asked', async () => {
    const calls = serve({ ...campaign, hold: null }, [
      recipient('d1', '山田 花子', false),
      recipient('d2', '佐藤 一郎', true),
    ]);
    await render();
    await screen.findByTestId('campaign-title', {}, { timeout: 15_000 });
    await waitFor(() => expect(screen.getAllByTestId('campaign-recipient')).toHaveLength(2));
    const [first, second] = screen.getAllByTestId('campaign-recipient');
    expect(within(first!).queryByTestId('campaign-recipient-repeat')).toBeNull();
    expect(within(second!).getByTestId('campaign-recipient-repeat').textContent).toBe('Possibly sent twice');
    fireEvent.click(screen.getByLabelText('Possibly sent twice only'));
    await waitFor(() => expect(screen.getAllByTestId('campaign-recipient')).toHaveLength(1));
    expect(screen.getByTestId('campaign-recipient').textContent).toContain('佐藤 一郎');
    expect(
      calls.some(
        (c) =>
          c.url.pathname === `/v1/campaigns/${ID}/recipients` && c.url.searchParams.get('possibleRepeats') === 'true',
      ),
    ).toBe(true);
  }, 30_000);

  it("shows a bounce's classified diagnostic alone, an unclassified failure's relay reply under the generic text, and lists the soft bounces alone when asked", async () => {
    const bounce = (kind: 'hard_bounce' | 'soft_bounce', status: string, diagnostic: string) => ({
      kind,
      status,
      diagnostic,
      at: '2026-11-24T12:10:00.000Z',
    });
    const calls = serve({ ...campaign, hold: null }, [
      {
        ...recipient('d1', '山田 花子', false),
        status: 'failed',
        error: '550 5.1.1 <d1@guest.example.jp>: Recipient address rejected: User unknown',
        feedback: bounce(
          'hard_bounce',
          '5.1.1',
          '550 5.1.1 <d1@guest.example.jp>: Recipient address rejected: User unknown',
        ),
      },
      {
        ...recipient('d2', '佐藤 一郎', false),
        feedback: bounce('soft_bounce', '5.2.2', '552 5.2.2 <d2@guest.example.jp>: Mailbox full'),
      },
      // A failure nothing classified: the generic text, and under it the relay's own words.
      {
        ...recipient('d3', '鈴木 次郎', false),
        status: 'failed',
        error: '421 4.7.28 <d3@guest.example.jp>: Too many connections from your IP, try again later',
      },
      // The send's own failure: its catalogue text, no relay's words.
      { ...recipient('d4', '高橋 三郎', false), status: 'failed', error: 'delivery_not_built' },
    ]);
    await render();
    await screen.findByTestId('campaign-title', {}, { timeout: 15_000 });
    await waitFor(() => expect(screen.getAllByTestId('campaign-recipient')).toHaveLength(4));
    const [hard, soft, unclassified, notBuilt] = screen.getAllByTestId('campaign-recipient');
    expect(within(hard!).queryByTestId('campaign-recipient-error')).toBeNull();
    expect(within(hard!).queryByText('An error has occured.')).toBeNull();
    expect(within(hard!).getByTestId('campaign-recipient-feedback').textContent).toBe(
      'Hard bounce · 5.1.1 · 550 5.1.1 <d1@guest.example.jp>: Recipient address rejected: User unknown',
    );
    expect(within(unclassified!).getByTestId('campaign-recipient-error').textContent).toBe('An error has occured.');
    expect(within(unclassified!).getByTestId('campaign-recipient-reply').textContent).toBe(
      '421 4.7.28 <d3@guest.example.jp>: Too many connections from your IP, try again later',
    );
    expect(within(hard!).queryByTestId('campaign-recipient-reply')).toBeNull();
    expect(within(notBuilt!).getByTestId('campaign-recipient-error').textContent).toBe(
      'The mail could not be built for this guest.',
    );
    expect(within(notBuilt!).queryByTestId('campaign-recipient-reply')).toBeNull();
    expect(within(soft!).getByTestId('campaign-recipient-feedback').textContent).toBe(
      'Soft bounce · 5.2.2 · 552 5.2.2 <d2@guest.example.jp>: Mailbox full',
    );

    fireEvent.change(screen.getByLabelText('Bounce or complaint'), { target: { value: 'soft_bounce' } });
    await waitFor(() => expect(screen.getAllByTestId('campaign-recipient')).toHaveLength(1));
    expect(screen.getByTestId('campaign-recipient').textContent).toContain('佐藤 一郎');
    expect(
      calls.some(
        (c) =>
          c.url.pathname === `/v1/campaigns/${ID}/recipients` && c.url.searchParams.get('feedback') === 'soft_bounce',
      ),
    ).toBe(true);
  }, 30_000);

  it('says why a skipped recipient was never mailed, and names a held-out one so', async () => {
    serve({ ...campaign, hold: null }, [
      recipient('d1', '山田 花子', false),
      { ...recipient('d2', '佐藤 一郎', false), status: 'skipped', skipReason: 'bounced', sentAt: null },
      { ...recipient('d3', '鈴木 次郎', false), status: 'skipped', skipReason: 'holdout', sentAt: null },
    ]);
    await render();
    await screen.findByTestId('campaign-title', {}, { timeout: 15_000 });
    await waitFor(() => expect(screen.getAllByTestId('campaign-recipient')).toHaveLength(3));
    const [sent, suppressed, held] = screen.getAllByTestId('campaign-recipient');
    expect(within(sent!).queryByTestId('campaign-recipient-skip-reason')).toBeNull();
    expect(within(suppressed!).getByText('Skipped')).toBeTruthy();
    expect(within(suppressed!).getByTestId('campaign-recipient-skip-reason').textContent).toBe(
      'On the suppression list',
    );
    expect(within(held!).getByText('Held out')).toBeTruthy();
    expect(within(held!).getByTestId('campaign-recipient-skip-reason').textContent).toBe(
      'In the holdout group: never mailed, so the campaign’s effect can be measured',
    );
  }, 30_000);

  it('says "Page not found." once for a campaign out of reach', async () => {
    serve(null);
    await render();
    const empty = await screen.findByTestId('empty-state', {}, { timeout: 15_000 });
    expect(empty.textContent?.match(/Page not found\./g)).toHaveLength(1);
    expect(empty.textContent).toContain('This campaign does not exist, or your role cannot see it.');
  }, 30_000);

  describe('with an A/B test and a holdout', () => {
    const tested = (phase: 'waiting' | 'decided') =>
      campaignFixture(
        {
          id: ID,
          status: 'pending',
          schedule: { kind: 'now', localTime: null, timeZone: null },
          startedAt: '2026-11-24T23:00:00.000Z',
          experiment: {
            variants: [
              {
                key: 'B',
                subject: '冬だけの特別料金',
                preHeader: '',
                senderName: null,
                templateId: null,
                templateName: null,
              },
            ],
            testPercent: 20,
            waitHours: 4,
            metric: 'clicks',
            holdoutPercent: 10,
            phase,
            decideAt: '2026-11-25T03:00:00.000Z',
            winner: null,
          },
        },
        { audience: 10000, sent: 2000, heldOut: 1000 },
      );

    it('reports each variant with its interval, the winner and why, and what the holdout says the campaign caused', async () => {
      serve(tested('decided'));
      await render();
      const table = await screen.findByTestId('experiment-variants', {}, { timeout: 15_000 });
      const rows = within(table).getAllByTestId('experiment-variant');
      expect(rows.map((r) => r.getAttribute('data-key'))).toEqual(['A', 'B']);
      expect(within(rows[1]!).getByTestId('experiment-winner').textContent).toBe('Winner');
      expect(within(rows[1]!).getByTestId('experiment-click-rate').textContent).toBe('4.1% (3.1%–5.3%)');
      expect(rows[1]!.textContent).toContain('¥160,000');
      expect(screen.getByTestId('experiment-phase').textContent).toBe('Decided');
      expect(screen.getByTestId('experiment-decision').textContent).toBe(
        'B won on clicks: 4.1% against 3.2%, 95% confidence. B went to the rest.',
      );
      // No picking once decided.
      expect(screen.queryByTestId('experiment-pick')).toBeNull();
      expect(screen.getByTestId('stat-held-out-value').textContent).toBe('1,000');
      const attribution = screen.getByTestId('holdout-attribution');
      expect(attribution.textContent).toContain('Attribution window (7 days)');
      expect(within(attribution).getByTestId('holdout-incremental').textContent).toBe(
        'Incremental bookings: 36 (±12) · Incremental revenue: ¥1,152,000 (±¥384,000)',
      );
      expect(within(attribution).getByTestId('holdout-result').textContent).toContain('This campaign caused 36 (±12)');
      expect(within(screen.getByTestId('holdout-days_30')).getByTestId('holdout-result').textContent).toContain(
        'No difference that holds at 95% confidence yet',
      );
    }, 30_000);

    it('lets the marketer pick the winner before the wait ends, after a confirmation, in the named zone', async () => {
      let report = experimentReportFixture({ phase: 'waiting', decision: null });
      const calls = serve(
        tested('waiting'),
        undefined,
        () => report,
        () => {
          report = experimentReportFixture({
            decision: { kind: 'manual', key: 'B', by: { id: 'u1', name: '田中 花子' } },
          });
          return tested('decided').experiment;
        },
      );
      await render();
      expect((await screen.findByTestId('experiment-phase-text', {}, { timeout: 15_000 })).textContent).toBe(
        'Waiting for results until 25 Nov 2026, 12:00 PM (Asia/Tokyo); then the winner goes to the rest.',
      );
      const picks = screen.getAllByTestId('experiment-pick');
      expect(picks.map((b) => b.textContent)).toEqual(['Pick A now', 'Pick B now']);
      fireEvent.click(picks[1]!);
      expect((await screen.findByText('Send variant B to the rest?')).textContent).toBeTruthy();
      expect(calls.some((c) => c.method === 'POST')).toBe(false);
      fireEvent.click(screen.getByRole('button', { name: 'Send B to the rest' }));
      await waitFor(() =>
        expect(screen.getByTestId('experiment-decision').textContent).toBe(
          'B was picked by hand by 田中 花子 and went to the rest.',
        ),
      );
      const post = calls.find((c) => c.method === 'POST');
      expect(post?.url.pathname).toBe(`/v1/campaigns/${ID}/experiment/winner`);
    }, 30_000);

    it('on a paused campaign, says the picked winner reaches the rest once it is resumed, not that it went', async () => {
      const paused = (phase: 'waiting' | 'decided') => ({
        ...tested(phase),
        paused: { at: '2026-11-24T12:05:00.000Z', by: null, reason: { kind: 'hard_bounce' as const, rate: 0.128 } },
      });
      let report = experimentReportFixture({ phase: 'waiting', decision: null });
      let answer = paused('waiting');
      serve(
        answer,
        undefined,
        () => report,
        () => {
          report = experimentReportFixture({
            decision: { kind: 'manual', key: 'B', by: { id: 'u1', name: '田中 花子' } },
          });
          answer = paused('decided');
          return answer.experiment;
        },
      );
      await render();
      expect((await screen.findByTestId('experiment-phase-text', {}, { timeout: 15_000 })).textContent).toBe(
        'Waiting for results until 25 Nov 2026, 12:00 PM (Asia/Tokyo); the campaign is paused, so the winner goes to the rest once it is resumed.',
      );
      fireEvent.click(screen.getAllByTestId('experiment-pick')[1]!);
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText('Pick variant B for the rest?')).toBeTruthy();
      expect(dialog.textContent).toContain('The campaign is paused: they receive it only once it is resumed.');
      expect(dialog.textContent).not.toContain('goes to all the guests still waiting');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Pick B' }));
      await waitFor(() =>
        expect(screen.getByTestId('experiment-decision').textContent).toBe(
          'B was picked by hand by 田中 花子 and goes to the rest once the campaign is resumed.',
        ),
      );
    }, 30_000);

    it('offers no pick to a viewer', async () => {
      serve(tested('waiting'), undefined, () => experimentReportFixture({ phase: 'waiting', decision: null }));
      await render('viewer');
      await screen.findByTestId('experiment-variants', {}, { timeout: 15_000 });
      expect(screen.queryByTestId('experiment-pick')).toBeNull();
    }, 30_000);
  });

  it('warns before the pause, and lets an admin cancel a paused send after a confirmation (issue 25)', async () => {
    const paused: TCampaign = {
      ...campaign,
      hold: null,
      scope: 'campaign',
      editable: true,
      paused: { at: '2026-11-24T12:05:00.000Z', by: null, reason: { kind: 'complaint', rate: 0.0035 } },
    };
    const bounced = {
      ...recipient('d2', '佐藤 一郎', false),
      status: 'failed' as const,
      feedback: {
        kind: 'hard_bounce' as const,
        status: '5.1.1',
        diagnostic: 'smtp; 550 5.1.1 <bounce1@guest.example.jp>: user unknown',
        at: '2026-11-24T12:10:00.000Z',
      },
    };
    const calls = serve(paused, [bounced], undefined, undefined, { kind: 'complaint', rate: 0.0015, pausePct: 0.3 });
    await render('staff', 'brand');
    expect((await screen.findByTestId('campaign-protection-warning', {}, { timeout: 15_000 })).textContent).toBe(
      'Complaint rate 0.15%: this campaign pauses itself at 0.3%. Check who this campaign goes to before it does.',
    );
    expect(screen.getByTestId('campaign-paused').textContent).toContain('complaint rate 0.35%');
    // Each bounce says what it was and what the relay said.
    expect((await screen.findByTestId('campaign-recipient-feedback')).textContent).toBe(
      'Hard bounce · 5.1.1 · smtp; 550 5.1.1 <bounce1@guest.example.jp>: user unknown',
    );
    // Paused: resume or cancel, not pause.
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel campaign' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('the 2 guests not yet mailed will not receive it');
    expect(calls.some((c) => c.url.pathname.endsWith('/cancel'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel campaign' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.pathname.endsWith('/cancel'))).toBe(true),
    );
  }, 30_000);

  it('asks before resuming a campaign that paused itself, with why, the rate and how many mails go (issue 25)', async () => {
    const paused: TCampaign = {
      ...campaign,
      hold: null,
      scope: 'campaign',
      editable: true,
      paused: { at: '2026-11-24T12:05:00.000Z', by: null, reason: { kind: 'hard_bounce', rate: 0.128 } },
    };
    const calls = serve(paused);
    await render('staff', 'brand');
    fireEvent.click(await screen.findByRole('button', { name: 'Resume' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Resume this campaign?')).toBeTruthy();
    expect(dialog.textContent).toContain(
      '“冬のご案内” paused itself: its hard-bounce rate reached 12.8%. Resuming sends the 2 mails not yet sent, and it will not pause itself again.',
    );
    expect(calls.some((c) => c.url.pathname.endsWith('/resume'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resume' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.pathname.endsWith('/resume'))).toBe(true),
    );
  }, 30_000);

  it('tells a finished campaign past a limit to check its list before the next one, and defines what failed counts', async () => {
    const finished: TCampaign = {
      ...campaign,
      status: 'sent',
      hold: null,
      scope: 'campaign',
      editable: true,
      statistics: { ...campaign.statistics, queued: 0 },
    };
    serve(finished, undefined, undefined, undefined, { kind: 'hard_bounce', rate: 0.109, pausePct: 5 });
    await render('staff', 'brand');
    expect((await screen.findByTestId('campaign-protection-warning', {}, { timeout: 15_000 })).textContent).toBe(
      "Hard-bounce rate 10.9%, past the 5% at which a campaign pauses itself, but it had nothing left to send. Check the recipients' addresses before the next campaign to them.",
    );
    // Failed counts the relay's refusals; a bounce after acceptance is a hard bounce, not a failure.
    const failed = await screen.findByTestId('stat-failed');
    expect(failed.textContent).toContain('0 refused as hard bounces');
    expect(within(failed).getByLabelText(/Mails the relay refused when they were handed to it/)).toBeTruthy();
    expect(
      within(screen.getByTestId('stat-hard-bounces')).getByLabelText(
        /whether the relay refused the mail or a bounce report came afterwards/,
      ),
    ).toBeTruthy();
  }, 30_000);

  it('says "No events yet" rather than draw a chart of zeros while a whole campaign has only skipped and waiting mails', async () => {
    const waiting: TCampaign = { ...campaign, scope: 'campaign', editable: true };
    const zero = { ...counters, sent: 0, delivered: 0, hardBounces: 0, complaints: 0, opens: 0, uniqueOpens: 0 };
    const asked: string[] = [];
    serve(waiting);
    // The hour of the skipped mails is a point, every drawn counter zero (as the server answers it).
    const served = globalThis.fetch;
    const json = (data: unknown) =>
      new Response(JSON.stringify({ data }), { headers: { 'Content-Type': 'application/json' } });
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      asked.push(path);
      if (path === `/v1/campaigns/${ID}/statistics/series`)
        return json({
          interval: 'hour',
          timeZone: 'Asia/Tokyo',
          points: [{ ...zero, skipped: 5, at: '2026-11-24T12:00:00.000Z' }],
        });
      if (path === `/v1/campaigns/${ID}/statistics/links`) return json({ links: [] });
      return served(input, init);
    }) as typeof fetch;
    await render('staff', 'brand');
    expect((await screen.findByTestId('campaign-no-events', {}, { timeout: 15_000 })).textContent).toBe(
      'No events yet.',
    );
    expect(asked).toContain(`/v1/campaigns/${ID}/statistics/series`);
    expect(screen.queryByTestId('campaign-chart')).toBeNull();
  }, 30_000);
});

describe('a campaign that has sent nothing yet', () => {
  const nothing = Object.fromEntries(Object.keys(counters).map((key) => [key, 0])) as typeof counters;
  /** The server's answers for a started campaign with no mail handed to the relay: no rollup row, no rate. */
  const serveNothing = (answer: TCampaign, recipients: ReturnType<typeof recipient>[] = []) =>
    mockFetch((_method, url) => {
      if (url.pathname === `/v1/campaigns/${ID}`) return { body: { data: answer } };
      if (url.pathname === `/v1/campaigns/${ID}/statistics`)
        return {
          body: {
            data: {
              campaignId: ID,
              totals: nothing,
              unopened: 0,
              rates: ratesOf(nothing),
              updatedAt: null,
              warning: null,
            },
          },
        };
      if (url.pathname === `/v1/campaigns/${ID}/statistics/hotels`) return { body: { data: { hotels: [] } } };
      if (url.pathname === `/v1/campaigns/${ID}/statistics/series`)
        return { body: { data: { interval: 'hour', timeZone: 'Asia/Tokyo', points: [] } } };
      if (url.pathname === `/v1/campaigns/${ID}/statistics/links`) return { body: { data: { links: [] } } };
      if (url.pathname === `/v1/campaigns/${ID}/recipients`)
        return { body: { data: { items: recipients, nextCursor: null } } };
      return undefined;
    });
  const queued = { ...recipient('d1', '山田 花子', false), status: 'queued' as const, sentAt: null };
  const started: TCampaign = { ...campaign, scope: 'campaign', editable: true };
  const states = {
    // Every delivery waits for the quiet hours to end (the list says "Waiting").
    waiting: started,
    // Held by its sending domain, no longer verified, and inside quiet hours too: their end is no promise.
    problem: { ...started, problem: 'domain_not_verified' },
    sending: { ...started, hold: null },
    paused: { ...started, hold: null, paused: { at: '2026-11-24T12:05:00.000Z', by: { id: 'u1', name: '佐藤 花子' } } },
    cancelled: { ...started, status: 'cancelled', hold: null },
  } satisfies Record<string, TCampaign>;
  const texts = {
    en: {
      waiting:
        'Nothing has been sent yet: every mail waits for quiet hours to end; the first go out 25 Nov 2026, 8:00 AM.',
      problem: 'Nothing has been sent yet: no mail goes out until the problem shown above is put right.',
      sending: 'Nothing has been sent yet: sending has started, and the figures fill in as the mails go out.',
      paused: 'Nothing was sent before the campaign was paused: no mail goes out until it is resumed.',
      cancelled: 'The campaign was cancelled before any mail was sent.',
      noHotels: 'No figures per hotel yet: they appear once mail is sent.',
      noneHanded: 'No mail handed to the relay',
      noneDelivered: 'No mail delivered',
      noRecipients: 'No recipients yet.',
      dashSentence: ' of mails handed to the relay',
      cancelledBeforeStart: 'This campaign was cancelled before it was sent.',
    },
    ja: {
      waiting:
        'まだ1通も送信していません。すべてのメールが配信休止時間帯の終了を待っています。最初のメールは2026年11月25日 午前8:00に送信します。',
      problem: 'まだ1通も送信していません。上に表示している問題が解決するまで、メールは送信されません。',
      sending: 'まだ1通も送信していません。配信は始まっており、メールを送信するにつれて数値が表示されます。',
      paused: '一時停止するまでに送信したメールはありません。再開するまでメールは送信されません。',
      cancelled: 'メールを1通も送信しないうちにキャンペーンはキャンセルされました。',
      noHotels: 'ホテル別の数値はまだありません。メールを送信すると表示されます。',
      noneHanded: 'リレーに引き渡したメールはありません',
      noneDelivered: '配信成功したメールはありません',
      noRecipients: '配信対象者はまだいません。',
      dashSentence: 'リレーに引き渡したメールの',
      cancelledBeforeStart: 'このキャンペーンは配信前にキャンセルされました。',
    },
  } as const;

  describe.each(['en', 'ja'] as const)('in %s', (language) => {
    const text = texts[language];
    const show = () =>
      renderWithProviders(<CampaignStatisticsPage />, {
        path: `/campaign/${ID}`,
        pattern: '/campaign/:id',
        language,
        queryClient: signedInClient(profileFixture('brand', 'admin')),
      });

    it.each(Object.keys(states) as (keyof typeof states)[])(
      'says plainly that a %s campaign has sent nothing, and builds no sentence around a missing number',
      async (state) => {
        serveNothing(states[state], state === 'cancelled' ? [] : [queued]);
        await show();
        expect((await screen.findByTestId('campaign-nothing-sent', {}, { timeout: 15_000 })).textContent).toBe(
          text[state],
        );
        // No rate to give: each figure says there is nothing to count from, not "… of -".
        expect(screen.getByTestId('stat-hard-bounces').textContent).toContain(text.noneHanded);
        expect(screen.getByTestId('stat-soft-bounces').textContent).toContain(text.noneHanded);
        expect(screen.getByTestId('stat-complaints').textContent).toContain(text.noneDelivered);
        expect(screen.getByTestId('stat-open-rate').textContent).toContain(text.noneDelivered);
        expect(screen.getByTestId('stat-click-rate').textContent).toContain(text.noneDelivered);
        for (const figure of screen.getAllByTestId(/^stat-[a-z-]+$/)) {
          expect(figure.textContent).not.toContain(text.dashSentence);
          expect(figure.textContent).not.toMatch(/(ユニーク|合計|Unique|Total) -/);
        }
        // The per-hotel table says why it is empty.
        expect((await screen.findByTestId('campaign-no-hotels')).textContent).toBe(text.noHotels);
        expect(within(screen.getByTestId('campaign-hotels')).queryAllByTestId('campaign-hotel')).toHaveLength(0);
        if (state === 'cancelled')
          expect((await screen.findByTestId('campaign-no-recipients')).textContent).toBe(text.noRecipients);
        else await screen.findByTestId('campaign-recipient');
      },
      30_000,
    );

    it('says a campaign cancelled before it started was never sent, not that it is still to be', async () => {
      serveNothing({ ...campaign, status: 'cancelled', startedAt: null, hold: null, scope: 'campaign' });
      await show();
      expect((await screen.findByTestId('campaign-not-sent', {}, { timeout: 15_000 })).textContent).toBe(
        text.cancelledBeforeStart,
      );
      expect(screen.queryByTestId('campaign-nothing-sent')).toBeNull();
    }, 30_000);
  });

  it('says nothing of the kind once mail has gone out', async () => {
    serve({ ...campaign, scope: 'campaign', editable: true, hold: null });
    await render('staff', 'brand');
    await screen.findByTestId('stat-sent-value', {}, { timeout: 15_000 });
    await screen.findAllByTestId('campaign-hotel');
    expect(screen.queryByTestId('campaign-nothing-sent')).toBeNull();
    expect(screen.queryByTestId('campaign-no-hotels')).toBeNull();
  }, 30_000);
});

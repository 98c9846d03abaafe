import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { experimentReportFixture, profileFixture, scenarioFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { ScenarioSummaryPage } from './ScenarioSummaryPage';

const running = {
  ...scenarioFixture('2026-11-21T00:00:00.000Z'),
  status: 'running',
  holdoutPercent: 10,
  startedAt: '2026-11-01T00:00:00.000Z',
};

const birthdayMail = {
  nodeId: 'email',
  label: null,
  subject: 'お誕生日おめでとうございます',
  campaignId: 'c1',
  sent: 162,
  skipped: 208,
  skippedBy: [
    { reason: 'unsubscribed', count: 180 },
    { reason: 'bounced', count: 22 },
    { reason: 'frequency_cap', count: 6 },
  ],
  cancelled: 0,
  failed: 0,
  queued: 0,
  opened: 59,
  clicked: 14,
  openRate: 59 / 162,
  clickRate: 14 / 162,
};

function serve(holdout: unknown) {
  return mockFetch((method, url) => {
    if (url.pathname === '/v1/scenarios/s1') return { body: { data: running } };
    if (url.pathname === '/v1/scenarios/s1/holdout') return { body: { data: holdout } };
    if (url.pathname === '/v1/scenarios/s1/emails') return { body: { data: { items: [birthdayMail] } } };
    return undefined;
  });
}

const render = () =>
  renderWithProviders(<ScenarioSummaryPage />, {
    path: '/automations/scenario/s1',
    pattern: '/automations/scenario/:id',
    queryClient: signedInClient(profileFixture('brand', 'admin')),
  });

describe('the scenario summary', () => {
  it('compares the guests the scenario mailed with its holdout, and says what it caused', async () => {
    serve(experimentReportFixture().holdout);
    await render();
    const report = await screen.findByTestId('holdout-report', {}, { timeout: 15_000 });
    expect(report.textContent).toContain('10% of the guests who entered were held out and never mailed.');
    const attribution = within(report).getByTestId('holdout-attribution');
    expect(within(attribution).getByTestId('holdout-mailed').textContent).toContain('9,000');
    expect(within(attribution).getByTestId('holdout-held-out').textContent).toContain('1,000');
    expect(within(attribution).getByTestId('holdout-result').textContent).toBe(
      'This scenario caused 36 (±12) bookings and ¥1,152,000 (±¥384,000) that would not have happened otherwise (95% confidence).',
    );
  }, 30_000);

  it("shows each mail's rates as percent of the fractions the API gives (36.4%, not 3,640%)", async () => {
    serve(experimentReportFixture().holdout);
    await render();
    const rates = await screen.findByTestId('summary-email-rates', {}, { timeout: 15_000 });
    expect(rates.textContent).toContain('36.4%');
    expect(rates.textContent).toContain('8.6%');
  }, 30_000);

  it.each([
    ['en', 'Skipped because:', ['Unsubscribed: 180', 'On the suppression list: 22', 'Held by the frequency cap: 6']],
    [
      'ja',
      'スキップの理由：',
      ['配信停止済み：180 人', '送信除外リストに登録済み：22 人', '配信頻度の上限に達している：6 人'],
    ],
  ] as const)(
    "lists in %s why each mail's guests were skipped, most first",
    async (language, heading, reasons) => {
      serve(experimentReportFixture().holdout);
      await renderWithProviders(<ScenarioSummaryPage />, {
        path: '/automations/scenario/s1',
        pattern: '/automations/scenario/:id',
        queryClient: signedInClient(profileFixture('brand', 'admin')),
        language,
      });
      const skippedBy = await screen.findByTestId('summary-email-skipped-by', {}, { timeout: 15_000 });
      const list = within(skippedBy).getByRole('list', { name: heading });
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(reasons);
    },
    30_000,
  );

  it('lists no reasons for a mail none of whose guests were skipped', async () => {
    mockFetch((method, url) => {
      if (url.pathname === '/v1/scenarios/s1') return { body: { data: running } };
      if (url.pathname === '/v1/scenarios/s1/holdout') return { body: { data: experimentReportFixture().holdout } };
      if (url.pathname === '/v1/scenarios/s1/emails')
        return { body: { data: { items: [{ ...birthdayMail, skipped: 0, skippedBy: [] }] } } };
      return undefined;
    });
    await render();
    await screen.findByTestId('summary-email-rates', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('summary-email-skipped-by')).toBeNull();
  }, 30_000);

  it('says plainly when its holdout is too small to say', async () => {
    const [attribution] = experimentReportFixture().holdout!.windows;
    serve({ percent: 5, windows: [{ ...attribution!, result: { kind: 'too_small', holdout: 12 } }] });
    await render();
    const result = await screen.findByTestId('holdout-result', {}, { timeout: 15_000 });
    expect(result.textContent).toBe('The holdout is too small to say: 12 guests held out (at least 100 are needed).');
  }, 30_000);

  describe('of a stopped scenario', () => {
    // Pre-arrival, stopped: of 120 guests at the entrance, 3 went on to their mail, 2 cancelled
    // their stay, and 115 were still waiting for their "3 days before check-in" when it stopped.
    const nodes = [
      { id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, data: { kind: 'before_check_in', days: 3 } },
      {
        id: 'email',
        type: 'email',
        position: { x: 0, y: 160 },
        data: {
          templateId: '00000000-0000-4000-8000-000000000001',
          subject: 'See you soon',
          senderEmail: 'info@sakura.example',
        },
      },
    ];
    const statuses = [
      {
        nodeId: 'trigger',
        state: 'stopped',
        message: null,
        counts: { entered: 120, waiting: 0, done: 3, skipped: 0, failed: 0, left: 117, stopped: 115 },
        nextDueAt: null,
        hold: null,
      },
      {
        nodeId: 'email',
        state: 'success',
        message: null,
        counts: { entered: 3, waiting: 0, done: 3, skipped: 0, failed: 0, left: 0, stopped: 0 },
        nextDueAt: null,
        hold: null,
      },
    ];
    const stopped = {
      ...scenarioFixture('2026-11-21T00:00:00.000Z', nodes),
      status: 'stopped',
      editable: false,
      startedAt: '2026-11-01T00:00:00.000Z',
      stoppedAt: '2026-11-20T00:00:00.000Z',
      nodes: statuses,
    };
    const serveStopped = (emails: unknown[] = []) =>
      mockFetch((method, url) => {
        if (url.pathname === '/v1/scenarios/s1') return { body: { data: stopped } };
        if (url.pathname === '/v1/scenarios/s1/summary')
          return {
            body: {
              data: {
                runs: [{ run: 1, startedAt: stopped.startedAt, endedAt: stopped.stoppedAt, entered: 120 }],
                nodes: statuses,
              },
            },
          };
        if (url.pathname === '/v1/scenarios/s1/emails') return { body: { data: { items: emails } } };
        return undefined;
      });
    const row = async (nodeId: string) => {
      await screen.findByTestId('summary-runs', {}, { timeout: 15_000 });
      return screen
        .getAllByTestId('summary-node')
        .find((r) => r.getAttribute('data-node-id') === nodeId) as HTMLElement;
    };
    const cell = (r: HTMLElement, key: string) => r.querySelector(`[data-count="${key}"]`)?.textContent;

    it('says the guests still waiting at the entrance left because it stopped, never that they succeeded', async () => {
      serveStopped();
      await renderWithProviders(<ScenarioSummaryPage />, {
        path: '/automations/scenario/s1',
        pattern: '/automations/scenario/:id',
        queryClient: signedInClient(profileFixture('brand', 'admin')),
      });
      const entrance = await row('trigger');
      expect(entrance.textContent).not.toContain('Success');
      expect(within(entrance).getByText('Stopped')).toBeTruthy();
      expect(within(entrance).getByTestId('summary-node-stopped').textContent).toBe(
        '115 guests were still waiting at the entrance for their time to go on when the scenario stopped: they left because it stopped, without reaching any step after it.',
      );
      // Each guest in one column: 3 went on, 2 left of their own accord, 115 left when it stopped.
      expect([
        cell(entrance, 'entered'),
        cell(entrance, 'done'),
        cell(entrance, 'left'),
        cell(entrance, 'stopped'),
      ]).toEqual(['120', '3', '2', '115']);
      const email = await row('email');
      expect(within(email).getByText('Success')).toBeTruthy();
      expect(within(email).queryByTestId('summary-node-stopped')).toBeNull();
      expect(cell(email, 'stopped')).toBe('0');
    }, 30_000);

    it('says so in Japanese too', async () => {
      serveStopped();
      await renderWithProviders(<ScenarioSummaryPage />, {
        path: '/automations/scenario/s1',
        pattern: '/automations/scenario/:id',
        queryClient: signedInClient(profileFixture('brand', 'admin')),
        language: 'ja',
      });
      const entrance = await row('trigger');
      expect(entrance.textContent).not.toContain('成功');
      expect(within(entrance).getByTestId('summary-node-stopped').textContent).toBe(
        'シナリオを停止したとき、115 人が入口で次へ進む時刻を待っていました。停止により離脱したため、その先のステップには進んでいません。',
      );
      expect(screen.getByRole('columnheader', { name: '停止で離脱' })).toBeTruthy();
    }, 30_000);

    // Two mails were still queued when it stopped: never sent, and not on their way either.
    const cancelledMails = { ...birthdayMail, subject: 'See you soon', sent: 1, skipped: 0, cancelled: 2, queued: 0 };
    it.each([
      ['en', 'Sent 1', 'queued 0', '2 mails were never sent: they were still queued when the scenario stopped.'],
      ['ja', '送信 1', '送信待ち 0', '2 通は送信されていません。シナリオを停止したとき、まだ送信待ちでした。'],
    ] as const)(
      'says in %s that the mails still queued when it stopped were never sent',
      async (language, sent, queued, text) => {
        serveStopped([cancelledMails]);
        await renderWithProviders(<ScenarioSummaryPage />, {
          path: '/automations/scenario/s1',
          pattern: '/automations/scenario/:id',
          queryClient: signedInClient(profileFixture('brand', 'admin')),
          language,
        });
        const cancelled = await screen.findByTestId('summary-email-cancelled', {}, { timeout: 15_000 });
        expect(cancelled.textContent).toBe(text);
        expect(screen.getByTestId('summary-email-counts').textContent).toContain(sent);
        expect(screen.getByTestId('summary-email-rates').textContent).toContain(queued);
      },
      30_000,
    );

    it('says nothing of cancelled mails when none were', async () => {
      serveStopped([{ ...cancelledMails, cancelled: 0 }]);
      await renderWithProviders(<ScenarioSummaryPage />, {
        path: '/automations/scenario/s1',
        pattern: '/automations/scenario/:id',
        queryClient: signedInClient(profileFixture('brand', 'admin')),
      });
      await screen.findByTestId('summary-email-rates', {}, { timeout: 15_000 });
      expect(screen.queryByTestId('summary-email-cancelled')).toBeNull();
    }, 30_000);
  });
  describe('of a running scenario whose guests wait', () => {
    // "Members of a segment": 80 mails queued at the email step, held by the hotel's quiet hours
    // (15:00-23:00); a stay-relative entrance where guests wait for their date.
    const nodes = [
      { id: 'trigger', type: 'trigger', position: { x: 0, y: 0 }, data: { kind: 'before_check_in', days: 3 } },
      {
        id: 'email',
        type: 'email',
        position: { x: 0, y: 160 },
        data: {
          templateId: '00000000-0000-4000-8000-000000000001',
          subject: 'See you soon',
          senderEmail: 'info@sakura.example',
        },
      },
    ];
    const hold = {
      reason: 'quiet_hours',
      until: '2026-12-03T14:00:00.000Z',
      localTime: '23:00',
      timeZone: 'Asia/Tokyo',
      hostName: 'Sakura Hakone',
      otherHosts: 0,
      waiting: 80,
      whole: true,
    };
    const statuses = [
      {
        nodeId: 'trigger',
        state: 'running',
        message: null,
        counts: { entered: 95, waiting: 15, done: 80, skipped: 0, failed: 0, left: 0, stopped: 0 },
        nextDueAt: '2027-03-13T13:00:00.000Z',
        hold: null,
      },
      {
        nodeId: 'email',
        state: 'running',
        message: null,
        counts: { entered: 80, waiting: 80, done: 0, skipped: 0, failed: 0, left: 0, stopped: 0 },
        nextDueAt: null,
        hold,
      },
    ];
    const waiting = { ...scenarioFixture('2026-11-21T00:00:00.000Z', nodes), status: 'running', nodes: statuses };
    const journey = (id: string, extra: Record<string, unknown>) => ({
      id,
      customerId: `c-${id}`,
      customerName: 'Test300 Hand',
      bookingId: null,
      nodeId: 'email',
      state: 'waiting',
      dueAt: null,
      hold: null,
      enteredAt: '2026-12-03T05:00:00.000Z',
      path: [
        { nodeId: 'trigger', event: 'entered', detail: null, at: '2026-12-03T05:00:00.000Z' },
        { nodeId: 'email', event: 'queued', detail: null, at: '2026-12-03T06:00:00.000Z' },
      ],
      ...extra,
    });
    const serveWaiting = () =>
      mockFetch((method, url) => {
        if (url.pathname === '/v1/scenarios/s1') return { body: { data: waiting } };
        if (url.pathname === '/v1/scenarios/s1/summary')
          return {
            body: {
              data: {
                runs: [{ run: 1, startedAt: '2026-12-03T05:00:00.000Z', endedAt: null, entered: 95 }],
                nodes: statuses,
              },
            },
          };
        if (url.pathname === '/v1/scenarios/s1/emails')
          return { body: { data: { items: [{ ...birthdayMail, subject: 'See you soon', queued: 80, sent: 0 }] } } };
        if (url.pathname === '/v1/scenarios/s1/journeys')
          return {
            body: {
              data: {
                items: [
                  journey('j1', {
                    hold: {
                      reason: 'quiet_hours',
                      until: hold.until,
                      localTime: '23:00',
                      timeZone: 'Asia/Tokyo',
                      hostName: 'Sakura Hakone',
                    },
                  }),
                  journey('j2', {
                    nodeId: 'trigger',
                    dueAt: '2027-03-13T13:00:00.000Z',
                    path: [{ nodeId: 'trigger', event: 'entered', detail: null, at: '2026-12-03T05:00:00.000Z' }],
                  }),
                ],
                total: 2,
                page: 1,
                pageSize: 5,
              },
            },
          };
        return undefined;
      });

    it.each([
      [
        'en',
        'Waiting for quiet hours to end: 23:00 (Sakura Hakone)',
        'The next wait ends 13 Mar 2027, 10:00 PM',
        'Mail queued',
        'Waiting until 13 Mar 2027, 10:00 PM',
      ],
      [
        'ja',
        '配信休止時間帯の終了を待っています：23:00（Sakura Hakone）',
        '次の待機の終了：2027年3月13日 午後10:00',
        '送信待ち',
        '2027年3月13日 午後10:00 まで待機',
      ],
    ] as const)(
      'says in %s why the guests wait and until when',
      async (language, held, next, queued, until) => {
        serveWaiting();
        await renderWithProviders(<ScenarioSummaryPage />, {
          path: '/automations/scenario/s1',
          pattern: '/automations/scenario/:id',
          queryClient: signedInClient(profileFixture('brand', 'admin')),
          language,
        });
        await screen.findByTestId('summary-runs', {}, { timeout: 15_000 });
        const rowOf = (id: string) =>
          screen.getAllByTestId('summary-node').find((r) => r.getAttribute('data-node-id') === id) as HTMLElement;
        expect(within(rowOf('email')).getByTestId('summary-node-hold').textContent).toBe(held);
        expect(within(rowOf('trigger')).getByTestId('summary-node-next').textContent).toBe(next);
        expect((await screen.findByTestId('summary-email-hold', {}, { timeout: 10_000 })).textContent).toBe(held);

        // A customer's path: the held mail and the wait for a date each say why and until when.
        fireEvent.change(screen.getByTestId('path-search'), { target: { value: 'Hand' } });
        fireEvent.submit(screen.getByTestId('path-search').closest('form') as HTMLFormElement);
        const journeys = await screen.findAllByTestId('journey', {}, { timeout: 10_000 });
        expect(within(journeys[0]!).getByTestId('journey-wait').textContent).toBe(
          language === 'en' ? 'Waiting for quiet hours to end: 23:00 (Sakura Hakone)' : held,
        );
        expect(within(journeys[0]!).getAllByTestId('journey-step')[1]!.textContent).toContain(queued);
        expect(journeys[0]!.textContent).not.toMatch(/· queued/);
        expect(within(journeys[1]!).getByTestId('journey-wait').textContent).toBe(until);
      },
      30_000,
    );
  });
});

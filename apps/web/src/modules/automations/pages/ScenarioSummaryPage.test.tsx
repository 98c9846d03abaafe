import { screen, within } from '@testing-library/react';
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

  it('says plainly when its holdout is too small to say', async () => {
    const [attribution] = experimentReportFixture().holdout!.windows;
    serve({ percent: 5, windows: [{ ...attribution!, result: { kind: 'too_small', holdout: 12 } }] });
    await render();
    const result = await screen.findByTestId('holdout-result', {}, { timeout: 15_000 });
    expect(result.textContent).toBe('The holdout is too small to say: 12 guests held out (at least 100 are needed).');
  }, 30_000);
});

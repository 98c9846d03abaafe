import { screen, within } from '@testing-library/react';
import type { TDomainDeliverability, TDomainWindow } from '@yado/contracts/domain-deliverability';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { DomainDeliverability } from './DomainDeliverability';

function window(days: number, overrides: Partial<TDomainWindow> = {}): TDomainWindow {
  return {
    days,
    handed: 0,
    delivered: 0,
    hardBounces: 0,
    softBounces: 0,
    complaints: 0,
    policyBlocks: 0,
    autoReplies: 0,
    hardBounceRate: null,
    complaintRate: null,
    policyBlockRate: null,
    ...overrides,
  };
}

const sakura: TDomainDeliverability = {
  domainId: 'd1',
  domain: 'sakura-hotels.example.jp',
  displayName: 'sakura-hotels.example.jp',
  state: 'verified',
  lapsedAt: null,
  windows: [
    window(7, {
      handed: 2000,
      delivered: 1900,
      hardBounces: 120,
      softBounces: 10,
      complaints: 4,
      policyBlocks: 30,
      autoReplies: 2,
      hardBounceRate: 0.06,
      complaintRate: 4 / 1900,
      policyBlockRate: 0.015,
    }),
    window(30, {
      handed: 10000,
      delivered: 9800,
      hardBounces: 150,
      complaints: 5,
      hardBounceRate: 0.015,
      complaintRate: 5 / 9800,
    }),
  ],
  recentPolicyBlocks: [
    { at: '2026-11-26T01:00:00Z', status: '5.7.1', diagnostic: '554 5.7.1 Message rejected as spam' },
  ],
};

const answer = (domains: TDomainDeliverability[]) =>
  mockFetch((method, url) =>
    method === 'GET' && url.pathname === '/v1/deliverability/domains' ? { body: { data: { domains } } } : undefined,
  );

describe('DomainDeliverability', () => {
  it('shows each window with rates judged against the providers’ limits, and the latest policy blocks', async () => {
    answer([sakura]);
    await renderWithProviders(<DomainDeliverability />);
    const card = await screen.findByTestId('deliverability-sakura-hotels.example.jp');
    expect(within(card).getByText('Last 7 days')).toBeTruthy();
    expect(within(card).getByText('Last 30 days')).toBeTruthy();
    const hard = within(card).getByTestId('deliverability-row-hard_bounces');
    expect(hard.textContent).toContain('120');
    expect(hard.textContent).toContain('(6.00%)');
    // 6% is past SES's review (5%); 1.5% is within.
    expect(within(hard).getByTestId('level-hard_bounces-7').textContent).toBe('Over the limit');
    expect(within(hard).getByTestId('level-hard_bounces-30').textContent).toBe('Within limits');
    // 0.21% complaints: past Gmail's 0.1%, under its 0.3%; 0.05% is within.
    const complaints = within(card).getByTestId('deliverability-row-complaints');
    expect(complaints.textContent).toContain('(0.21%)');
    expect(within(complaints).getByTestId('level-complaints-7').textContent).toBe('Watch');
    expect(within(complaints).getByTestId('level-complaints-30').textContent).toBe('Within limits');
    expect(within(card).getByTestId('deliverability-row-handed').textContent).toContain('2,000');
    expect(within(card).getByTestId('deliverability-row-policy_blocks').textContent).toContain('(1.50%)');
    // Nothing handed over in a window: no rate, no verdict.
    expect(within(card).getByTestId('deliverability-row-policy_blocks').textContent).toContain('-');
    const blocks = within(card).getByTestId('deliverability-blocks');
    expect(within(blocks).getByText('554 5.7.1 Message rejected as spam')).toBeTruthy();
    expect(within(blocks).getByText('5.7.1')).toBeTruthy();
    expect(screen.getByText(/never 0\.3% \(Gmail, Yahoo\)/)).toBeTruthy();
  }, 20_000);

  it('speaks Japanese', async () => {
    answer([{ ...sakura, recentPolicyBlocks: [] }]);
    await renderWithProviders(<DomainDeliverability />, { language: 'ja' });
    const card = await screen.findByTestId('deliverability-sakura-hotels.example.jp');
    expect(within(card).getByText('直近7日間')).toBeTruthy();
    expect(within(card).getByText('ハードバウンス')).toBeTruthy();
    expect(within(card).getByTestId('level-hard_bounces-7').textContent).toBe('基準超過');
    expect(within(card).getByText('ポリシーによる拒否はありません。')).toBeTruthy();
    expect(screen.getByText('送信ドメインごとの到達状況')).toBeTruthy();
  }, 20_000);

  it("says so in the user's language when the brand level is not acting", async () => {
    mockFetch(() => ({
      status: 403,
      body: {
        error: {
          code: 'domain_deliverability_brand_only',
          message: 'Deliverability is kept per brand. Switch to the brand to see it.',
        },
      },
    }));
    await renderWithProviders(<DomainDeliverability />, { language: 'ja' });
    const alert = await screen.findByTestId('deliverability-unavailable');
    expect(alert.textContent).toContain('到達率はブランドごとに管理しています');
  });
});

import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { ProtectionNotice } from './ProtectionNotice';

describe('protection banner (issue 25)', () => {
  it('names the campaigns that paused themselves or near their limits, with the rate and threshold', async () => {
    mockFetch((_method, url) =>
      url.pathname === '/v1/deliverability/protection/alerts'
        ? {
            body: {
              data: [
                {
                  campaignId: 'c1',
                  name: '冬のご案内',
                  kind: 'hard_bounce',
                  rate: 0.031,
                  pausePct: 5,
                  paused: false,
                  finished: false,
                },
                {
                  campaignId: 'c2',
                  name: '春の宿泊プラン',
                  kind: 'complaint',
                  rate: 0.004,
                  pausePct: 0.3,
                  paused: true,
                  finished: false,
                },
                {
                  campaignId: 'c3',
                  name: '秋のご案内',
                  kind: 'complaint',
                  rate: 0.0014,
                  pausePct: 0.3,
                  paused: false,
                  finished: true,
                },
              ],
            },
          }
        : undefined,
    );
    await renderWithProviders(<ProtectionNotice />, { language: 'ja' });
    const lines = await screen.findAllByTestId('shell-protection-campaign', {}, { timeout: 10_000 });
    expect(lines.map((l) => l.textContent)).toEqual([
      '「冬のご案内」: ハードバウンス率 3.1%: 5% に達するとこのキャンペーンは自動で一時停止します。その前に宛先のアドレスを確認してください。 統計を開く',
      '「春の宿泊プラン」は自動で一時停止しました。 統計を開く',
      // Finished: it will not pause; its list is what needs a look before the next campaign.
      '「秋のご案内」: 迷惑メール報告率 0.14%（0.3% でキャンペーンは自動で一時停止します）。次のキャンペーンを送る前に配信先を確認してください。 統計を開く',
    ]);
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/campaign/c1',
      '/campaign/c2',
      '/campaign/c3',
    ]);
  }, 30_000);

  it('says nothing when no campaign is near its limits', async () => {
    const calls = mockFetch((_method, url) =>
      url.pathname === '/v1/deliverability/protection/alerts' ? { body: { data: [] } } : undefined,
    );
    await renderWithProviders(<ProtectionNotice />);
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/v1/deliverability/protection/alerts')).toBe(true),
    );
    expect(screen.queryByTestId('shell-protection')).toBeNull();
  });
});

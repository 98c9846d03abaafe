import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TSendingDomain } from '@yado/contracts/sending';
import { describe, expect, it } from 'vitest';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { DomainAuthentication } from './DomainAuthentication';

const record = (
  kind: TSendingDomain['records'][number]['kind'],
  type: 'TXT' | 'CNAME',
  name: string,
  value: string,
) => ({
  kind,
  type,
  name,
  value,
  state: 'unverified' as const,
  check: null,
});

function domain(overrides: Partial<TSendingDomain> = {}): TSendingDomain {
  return {
    id: 'd1',
    domain: 'xn--u9j.jp',
    displayName: 'さ.jp',
    state: 'unverified',
    records: [
      record('spf', 'TXT', 'xn--u9j.jp', 'v=spf1 include:_spf.yado-mail.net ~all'),
      record('dkim', 'TXT', 'yado202611._domainkey.xn--u9j.jp', 'v=DKIM1; k=rsa; p=MIIB'),
    ],
    verifyInSeconds: 0,
    verifyAvailableAt: '2026-11-24T00:00:00Z',
    lastCheckedAt: null,
    verifiedAt: null,
    lapsedAt: null,
    createdAt: '2026-11-24T00:00:00Z',
    ...overrides,
  };
}

describe('DomainAuthentication', () => {
  it('keeps "Verify DNS setup" locked while the countdown runs and shows the time left', async () => {
    mockFetch((method, url) =>
      url.pathname === '/v1/sending/domains'
        ? { body: { data: { domains: [domain({ verifyInSeconds: 95 })], canManage: true } } }
        : undefined,
    );
    await renderWithProviders(<DomainAuthentication />);
    const card = await screen.findByTestId('domain-xn--u9j.jp');
    expect(within(card).getByText('さ.jp')).toBeTruthy();
    expect((within(card).getByTestId('verify-dns') as HTMLButtonElement).disabled).toBe(true);
    expect(within(card).getByTestId('verify-countdown').textContent).toMatch(/Available in 1:3[45]/);
  });

  it('shows each record with what DNS holds and the specification messages after a failed try', async () => {
    const failed = domain({
      state: 'in_verification',
      verifyInSeconds: 120,
      records: [
        {
          ...record('spf', 'TXT', 'xn--u9j.jp', 'v=spf1 include:_spf.yado-mail.net ~all'),
          state: 'in_verification',
          check: {
            result: 'malformed',
            found: ['v=spf1 a', 'v=spf1 mx'],
            problem: 'dns_two_spf_records',
            checkedAt: '2026-11-24T00:00:00Z',
          },
        },
        {
          ...record('dkim', 'TXT', 'yado202611._domainkey.xn--u9j.jp', 'v=DKIM1; k=rsa; p=MIIB'),
          state: 'verified',
          check: { result: 'correct', found: [], problem: null, checkedAt: '2026-11-24T00:00:00Z' },
        },
      ],
    });
    const calls = mockFetch((method, url) => {
      if (url.pathname === '/v1/sending/domains') return { body: { data: { domains: [domain()], canManage: true } } };
      if (url.pathname === '/v1/sending/domains/d1/verify' && method === 'POST') return { body: { data: failed } };
      return undefined;
    });
    await renderWithProviders(<DomainAuthentication />);
    const card = await screen.findByTestId('domain-xn--u9j.jp');
    fireEvent.click(within(card).getByTestId('verify-dns'));
    const outcome = await within(card).findByTestId('verify-outcome');
    expect(outcome.textContent).toContain("Oops! Check your settings and make sure everything's set up right.");
    expect(outcome.textContent).toContain('Incorrect format in your DNS settings.');
    const spf = within(card).getByTestId('record-spf');
    expect(spf.getAttribute('data-state')).toBe('in_verification');
    expect(spf.textContent).toContain('The domain has two SPF records; merge them into one.');
    expect(spf.textContent).toContain('v=spf1 a | v=spf1 mx');
    expect(within(card).getByTestId('record-dkim').getAttribute('data-state')).toBe('verified');
    await waitFor(() => expect((within(card).getByTestId('verify-dns') as HTMLButtonElement).disabled).toBe(true));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('says "Please enter a valid domain" beside the field when the server refuses the domain', async () => {
    mockFetch((method, url) => {
      if (url.pathname === '/v1/sending/domains' && method === 'GET')
        return { body: { data: { domains: [], canManage: true } } };
      if (url.pathname === '/v1/sending/domains' && method === 'POST')
        return {
          status: 409,
          body: {
            error: {
              code: 'domain_exists',
              message: 'Oops! This domain already exists.',
              fields: { domain: { code: 'domain_exists', message: 'Oops! This domain already exists.' } },
            },
          },
        };
      return undefined;
    });
    await renderWithProviders(<DomainAuthentication />, { language: 'ja' });
    const form = await screen.findByTestId('domain-add-form');
    fireEvent.click(within(form).getByRole('button', { name: 'ドメインを追加' }));
    expect(await within(form).findByText('有効なドメインを入力してください')).toBeTruthy();
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: 'taken.jp' } });
    fireEvent.click(within(form).getByRole('button', { name: 'ドメインを追加' }));
    expect(await within(form).findByText('このドメインはすでに登録されています。')).toBeTruthy();
  });

  it('warns when a verified domain fell out of verification, and shows a hotel the brand domains read-only', async () => {
    const lapsed = domain({ state: 'in_verification', lapsedAt: '2026-11-24T04:41:00Z', verifyInSeconds: 0 });
    mockFetch((method, url) =>
      url.pathname === '/v1/sending/domains' ? { body: { data: { domains: [lapsed], canManage: false } } } : undefined,
    );
    await renderWithProviders(<DomainAuthentication />);
    const banner = await screen.findByTestId('domain-lapsed-banner');
    expect(banner.textContent).toContain('The DNS records of さ.jp changed since it was verified.');
    expect(screen.queryByTestId('domain-add-form')).toBeNull();
    expect(screen.queryByTestId('verify-dns')).toBeNull();
    expect(
      screen.getByText("Domains are added and verified by the brand. You can see the brand's domains here."),
    ).toBeTruthy();
    // The records under a heading of their own, not the brand's "Step 2" instruction.
    expect(screen.getByText("The domain's DNS records")).toBeTruthy();
    expect(screen.queryByText(/Step 2/)).toBeNull();
  });
});

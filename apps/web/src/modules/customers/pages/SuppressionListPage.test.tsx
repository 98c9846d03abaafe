import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { SuppressionListPage } from './SuppressionListPage';

const entry = (id: string, email: string, reason: string) => ({
  id,
  email,
  customer: { id: `c-${id}`, name: '佐藤 花子' },
  reason,
  diagnostic: reason === 'hard_bounce' ? '550 5.1.1 User unknown' : null,
  campaign: { id: 'k1', name: '冬のご案内' },
  scenario: null,
  createdAt: '2026-11-20T00:00:00Z',
  until: null,
});

function serve(lifted: string[]) {
  return mockFetch((method, url) => {
    if (method === 'GET' && url.pathname === '/v1/suppressions') {
      const items = [entry('s1', 'bounce@guest.jp', 'hard_bounce'), entry('s2', 'complain@guest.jp', 'complaint')];
      return { body: { data: { items, total: items.length, page: 1, pageSize: 20 } } };
    }
    const lift = /^\/v1\/suppressions\/(\w+)\/lift$/.exec(url.pathname);
    if (method === 'POST' && lift) {
      lifted.push(lift[1] as string);
      return { body: { data: { id: lift[1] } } };
    }
    return undefined;
  });
}

describe('the suppression list', () => {
  it('shows each entry with its reason, diagnostic and campaign, and warns before lifting a complaint', async () => {
    const lifted: string[] = [];
    serve(lifted);
    await renderWithProviders(<SuppressionListPage />, {
      path: '/suppression-list',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const rows = await screen.findAllByTestId('suppression-row');
    expect(rows.map((r) => r.getAttribute('data-reason'))).toEqual(['hard_bounce', 'complaint']);
    // The relay's words under the reason (one column, so the list fits a laptop's width).
    const reason = within(rows[0] as HTMLElement).getByTestId('suppression-reason');
    expect(within(reason).getByText('Hard bounce')).toBeTruthy();
    expect(within(reason).getByTestId('suppression-diagnostic').textContent).toBe('550 5.1.1 User unknown');
    expect(within(rows[1] as HTMLElement).queryByTestId('suppression-diagnostic')).toBeNull();
    expect(within(rows[0] as HTMLElement).getByText('冬のご案内')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Actions for complain@guest.jp' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Lift' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('suppression-complaint-warning').textContent).toContain(
      'Lifting does not re-subscribe them',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lift' }));
    await waitFor(() => expect(lifted).toEqual(['s2']));
  });

  it('offers neither lift nor add to a viewer', async () => {
    serve([]);
    await renderWithProviders(<SuppressionListPage />, {
      path: '/suppression-list',
      queryClient: signedInClient(profileFixture('brand', 'viewer')),
    });
    await screen.findAllByTestId('suppression-row');
    expect(screen.queryByRole('button', { name: /Actions for/ })).toBeNull();
    expect(screen.queryByTestId('suppression-add')).toBeNull();
  });
});

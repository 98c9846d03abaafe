import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TAssignableRole, TAssignableRoles } from '@yado/contracts/auth';
import { describe, expect, it, vi } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders } from '../../../test/render';
import { reloadTo } from '../../../lib/browser/reloadTo';
import { SwitchRoleDialog } from './SwitchRoleDialog';

vi.mock('../../../lib/browser/reloadTo', () => ({ reloadTo: vi.fn() }));

const row = (over: Partial<TAssignableRole>): TAssignableRole => ({
  username: 'Sakura Hotel Kyoto',
  role: 'admin',
  roleName: 'Hotel Admin',
  level: 'hotel',
  slug: 'sakura-kyoto',
  brandName: 'Sakura Resorts',
  createdDate: '2026-01-05T00:00:00Z',
  isDefault: false,
  isSelected: false,
  ...over,
});

const assignable: TAssignableRoles = {
  isDefaultLoggedIn: false,
  grandUser: [],
  brand: [
    row({
      username: 'Sakura Resorts',
      level: 'brand',
      slug: 'sakura',
      roleName: 'Brand Admin',
      brandName: null,
      isSelected: true,
    }),
  ],
  hotelGroup: [],
  hotel: [
    row({ username: 'Sakura Hotel Kyoto', isDefault: true, role: 'staff', roleName: 'Hotel Staff' }),
    row({ username: 'Sakura Hotel Osaka', slug: 'sakura-osaka' }),
  ],
  defaultTab: 'hotel',
};

function serve() {
  return mockFetch((method, url) => {
    if (url.pathname === '/v1/auth/assignable') return { body: { data: assignable } };
    if (url.pathname === '/v1/auth/me')
      return { body: { data: profileFixture('hotel', 'admin', { isDefaultRole: false }) } };
    return undefined;
  });
}

describe('SwitchRoleDialog', () => {
  it('shows tabs only for the levels the user has, opening on the default tab', async () => {
    serve();
    await renderWithProviders(<SwitchRoleDialog opened onClose={() => {}} />);
    await screen.findByTestId('role-tab-hotel');
    expect(screen.queryByTestId('role-tab-grand_user')).toBeNull();
    expect(screen.queryByTestId('role-tab-hotel_group')).toBeNull();
    expect(screen.getByTestId('role-tab-hotel').getAttribute('aria-selected')).toBe('true');
    const rows = screen.getAllByTestId('role-row');
    expect(rows.map((r) => within(r).getByText(/Sakura Hotel/).textContent)).toEqual([
      'Sakura Hotel Kyoto',
      'Sakura Hotel Osaka',
    ]);
    // Badges: Default on the default row; brand name only on rows that are not the default.
    expect(within(rows[0]!).getByText('Default')).toBeTruthy();
    expect(within(rows[0]!).queryByText(/Sakura Resorts ·/)).toBeNull();
    expect(within(rows[1]!).getByText(/Sakura Resorts ·/)).toBeTruthy();
    expect(screen.getByTestId('back-to-default-role')).toBeTruthy();
  });

  it('does not switch to the role already selected', async () => {
    const calls = serve();
    await renderWithProviders(<SwitchRoleDialog opened onClose={() => {}} />);
    fireEvent.click(await screen.findByTestId('role-tab-brand'));
    await waitFor(() => expect(screen.getByTestId('role-tab-brand').getAttribute('aria-selected')).toBe('true'));
    const selected = screen.getAllByTestId('role-row').find((r) => r.getAttribute('aria-current') === 'true')!;
    expect(selected.textContent).toMatch(/Sakura Resorts/);
    fireEvent.click(selected);
    expect(calls.filter((c) => c.url.pathname === '/v1/auth/me')).toHaveLength(0);
  });

  it('scrolls the list back to the top when the tab changes', async () => {
    serve();
    const scrollTo = vi.spyOn(Element.prototype, 'scrollTo');
    await renderWithProviders(<SwitchRoleDialog opened onClose={() => {}} />);
    await screen.findByTestId('role-tab-hotel');
    scrollTo.mockClear();
    fireEvent.click(screen.getByTestId('role-tab-brand'));
    await waitFor(() => expect(scrollTo).toHaveBeenCalledWith({ top: 0 }));
  });

  it('switches by fetching the profile as the chosen role and reloading with the success flag', async () => {
    const calls = serve();
    await renderWithProviders(<SwitchRoleDialog opened onClose={() => {}} />);
    await screen.findByTestId('role-tab-hotel');
    fireEvent.click(screen.getByText('Sakura Hotel Osaka'));
    await waitFor(() => expect(reloadTo).toHaveBeenCalledWith('/?switchedRoleSuccess=true'));
    const me = calls.find((c) => c.url.pathname === '/v1/auth/me')!;
    const headers = me.init.headers as Record<string, string>;
    expect([headers['x-user-role'], headers['x-host-slug'], headers['x-host-level']]).toEqual([
      'admin',
      'sakura-osaka',
      'hotel',
    ]);
    expect(JSON.parse(window.localStorage.getItem('user')!).meta.slug).toBe('sakura-kyoto');
  });

  it('re-fetches with the search text once typing pauses', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = serve();
    await renderWithProviders(<SwitchRoleDialog opened onClose={() => {}} />);
    await screen.findByTestId('role-tab-hotel');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'Osaka' } });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('search') === 'Osaka')).toBe(true));
  });
});

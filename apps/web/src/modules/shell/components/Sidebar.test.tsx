import { fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import type { TMe } from '@yado/contracts/auth';
import { Sidebar } from './Sidebar';

function Harness({ me }: { me: TMe }) {
  const [collapsed, setCollapsed] = useState(false);
  return <Sidebar me={me} collapsed={collapsed} onCollapsedChange={setCollapsed} footer={null} />;
}

describe('Sidebar', () => {
  it('is 230px wide expanded and 88px collapsed, icons only', async () => {
    await renderWithProviders(<Harness me={profileFixture('brand', 'admin')} />, { path: '/customer-list' });
    const nav = screen.getByTestId('sidebar');
    expect(nav.style.width).toBe('230px');
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    expect(nav.style.width).toBe('88px');
    expect(nav.hasAttribute('data-collapsed')).toBe(true);
  });

  it('expands when any item is clicked while collapsed', async () => {
    await renderWithProviders(<Harness me={profileFixture('brand', 'admin')} />, { path: '/' });
    fireEvent.click(screen.getByTestId('sidebar-toggle'));
    fireEvent.click(screen.getByRole('button', { name: 'Customer' }));
    expect(screen.getByTestId('sidebar').style.width).toBe('230px');
  });

  it('toggles a group open and closed when its header is clicked while expanded', async () => {
    await renderWithProviders(<Harness me={profileFixture('brand', 'admin')} />, { path: '/' });
    const header = within(screen.getByTestId('nav-group-customer')).getByRole('button', { name: /Customer/ });
    expect(header.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(header);
    expect(header.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(header);
    expect(header.getAttribute('aria-expanded')).toBe('false');
  });

  it('marks the group of the current page active and the dashboard only on "/"', async () => {
    await renderWithProviders(<Harness me={profileFixture('brand', 'admin')} />, { path: '/segmentation' });
    const header = within(screen.getByTestId('nav-group-customer')).getByRole('button', { name: /Customer/ });
    expect(header.hasAttribute('data-active')).toBe(true);
    expect(screen.getByRole('link', { name: 'Dashboard' }).hasAttribute('data-active')).toBe(false);
  });

  it('hides from a viewer what only an admin may use', async () => {
    const { unmount } = await renderWithProviders(<Harness me={profileFixture('brand', 'admin')} />);
    expect(screen.queryByTestId('nav-group-management')).not.toBeNull();
    unmount();
    await renderWithProviders(<Harness me={profileFixture('hotel', 'viewer')} />);
    expect(screen.queryByTestId('nav-group-management')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Dashboard' })).not.toBeNull();
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { currentSnackbars } from '../../ui/components/snackbarStore';
import { SuppressionListPage } from './SuppressionListPage';

const entry = (id: string, email: string, reason: string, diagnostic?: string) => ({
  id,
  email,
  customer: { id: `c-${id}`, name: '佐藤 花子' },
  reason,
  diagnostic: diagnostic ?? (reason === 'hard_bounce' ? '550 5.1.1 User unknown' : null),
  campaign: { id: 'k1', name: '冬のご案内' },
  scenario: null,
  createdAt: '2026-11-20T00:00:00Z',
  until: null,
});

const FULL_MAILBOX =
  '552 5.2.2 <a.very.long.guest.address.for.winter@guest.example.jp>: Recipient address rejected: Mailbox full';

/** Gives elements the heights a browser would lay them out at; answers a function that undoes it. */
function layOut(heights: (element: HTMLElement) => { scrollHeight: number; clientHeight: number }): () => void {
  const scroll = vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
    return heights(this as HTMLElement).scrollHeight;
  });
  const client = vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return heights(this as HTMLElement).clientHeight;
  });
  return () => {
    scroll.mockRestore();
    client.mockRestore();
  };
}

function serve(lifted: string[]) {
  return mockFetch((method, url) => {
    if (method === 'GET' && url.pathname === '/v1/suppressions') {
      const items = [
        entry('s1', 'bounce@guest.jp', 'hard_bounce'),
        entry('s2', 'complain@guest.jp', 'complaint'),
        entry('s3', 'full@guest.jp', 'soft_bounces', FULL_MAILBOX),
      ];
      return { body: { data: { items, total: items.length, page: 1, pageSize: 20, timeZone: 'Asia/Tokyo' } } };
    }
    const lift = /^\/v1\/suppressions\/(\w+)\/lift$/.exec(url.pathname);
    if (method === 'POST' && lift) {
      // Lifted once, the entry is gone: a second lift is refused, as the server does.
      const again = lifted.includes(lift[1] as string);
      lifted.push(lift[1] as string);
      return again
        ? { status: 404, body: { error: { code: 'suppression_not_found', message: 'gone' } } }
        : { body: { data: { id: lift[1] } } };
    }
    return undefined;
  });
}

const showList = async (role: 'admin' | 'viewer' = 'admin') =>
  renderWithProviders(<SuppressionListPage />, {
    path: '/suppression-list',
    queryClient: signedInClient(profileFixture('brand', role)),
  });

async function openLift(email: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${email}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Lift' }));
  return screen.findByRole('dialog');
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
    expect(rows.map((r) => r.getAttribute('data-reason'))).toEqual(['hard_bounce', 'complaint', 'soft_bounces']);
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
    // Said once, rightly: a complainer's mail does not resume.
    expect(within(dialog).getByTestId('suppression-lift-message').textContent).toBe(
      'complain@guest.jp will be taken off the suppression list, but will still receive no campaign or scenario mail.',
    );
    expect(dialog.textContent).not.toContain('will receive campaign and scenario mail again');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lift' }));
    await waitFor(() => expect(lifted).toEqual(['s2']));
  });

  it('lifts once however fast the confirmation is pressed twice: one request, one success, no failure', async () => {
    const lifted: string[] = [];
    serve(lifted);
    await showList();
    const dialog = await openLift('bounce@guest.jp');
    expect(within(dialog).getByTestId('suppression-lift-message').textContent).toBe(
      'bounce@guest.jp will receive campaign and scenario mail again.',
    );
    const confirm = within(dialog).getByRole('button', { name: 'Lift' });
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    await waitFor(() =>
      expect(currentSnackbars().map((bar) => bar.text)).toContain(
        'bounce@guest.jp was lifted from the suppression list.',
      ),
    );
    expect(lifted).toEqual(['s1']);
    expect(currentSnackbars().filter((bar) => bar.status === 'failed')).toEqual([]);
  });

  it('shows a diagnostic broken anywhere in two lines, and whole on request when two do not hold it', async () => {
    // jsdom lays nothing out: the page reads whether a clamped diagnostic overflows its two lines
    // from scrollHeight against clientHeight, so each diagnostic here says so itself. The short
    // one overflowing stands for 41 Japanese characters, or a line of Latin ones without a break,
    // which a count of characters took for short.
    const overflowing = new Set([FULL_MAILBOX, '550 5.1.1 User unknown']);
    const restore = layOut((element) =>
      element.dataset.testid === 'suppression-diagnostic' && overflowing.has(element.textContent ?? '')
        ? { scrollHeight: 58, clientHeight: 39 }
        : { scrollHeight: 39, clientHeight: 39 },
    );
    try {
      serve([]);
      await showList();
      const rows = await screen.findAllByTestId('suppression-row');
      const short = within(rows[0] as HTMLElement).getByTestId('suppression-diagnostic');
      expect(short.textContent).toBe('550 5.1.1 User unknown');
      expect(short.hasAttribute('data-line-clamp')).toBe(true);
      expect(within(rows[0] as HTMLElement).getByTestId('suppression-diagnostic-toggle').textContent).toBe('Show all');

      const full = within(rows[2] as HTMLElement).getByTestId('suppression-diagnostic');
      expect(full.textContent).toBe(FULL_MAILBOX);
      // The address has no space to break at: it may break anywhere, so what follows it shows.
      expect(full.style.overflowWrap).toBe('anywhere');
      expect(full.hasAttribute('data-line-clamp')).toBe(true);
      const toggle = within(rows[2] as HTMLElement).getByTestId('suppression-diagnostic-toggle');
      expect(toggle.textContent).toBe('Show all');
      fireEvent.click(toggle);
      expect(full.hasAttribute('data-line-clamp')).toBe(false);
      expect(toggle.textContent).toBe('Show less');
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
      fireEvent.click(toggle);
      expect(full.hasAttribute('data-line-clamp')).toBe(true);
      expect(toggle.textContent).toBe('Show all');
    } finally {
      restore();
    }
  });

  it('offers no "show all" for a diagnostic its two lines hold, however long', async () => {
    const restore = layOut(() => ({ scrollHeight: 39, clientHeight: 39 }));
    try {
      serve([]);
      await showList();
      const rows = await screen.findAllByTestId('suppression-row');
      expect(within(rows[2] as HTMLElement).getByTestId('suppression-diagnostic').textContent).toBe(FULL_MAILBOX);
      expect(screen.queryByTestId('suppression-diagnostic-toggle')).toBeNull();
    } finally {
      restore();
    }
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

describe('the suppression list in a browser in another time zone than the host', () => {
  const browserZone = process.env.TZ;
  afterEach(() => {
    if (browserZone === undefined) delete process.env.TZ;
    else process.env.TZ = browserZone;
  });

  // Suppressed at 01:30 on 2 December in Tokyo, until 00:15 on 3 January there: in the browser's
  // New York, 11:30 AM on 1 December and 10:15 AM on 2 January.
  function serveSoftBounce() {
    return mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === '/v1/suppressions') {
        const items = [
          {
            ...entry('s9', 'full@guest.jp', 'soft_bounces', '452 4.2.2 Mailbox full'),
            createdAt: '2026-12-01T16:30:00Z',
            until: '2027-01-02T15:15:00Z',
          },
        ];
        return { body: { data: { items, total: 1, page: 1, pageSize: 20, timeZone: 'Asia/Tokyo' } } };
      }
      return undefined;
    });
  }
  const showIn = (language: 'ja' | 'en') =>
    renderWithProviders(<SuppressionListPage />, {
      path: '/suppression-list',
      language,
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });

  it("shows since and until when in the host's zone, and names it under the table", async () => {
    process.env.TZ = 'America/New_York';
    serveSoftBounce();
    await showIn('en');
    const row = await screen.findByTestId('suppression-row');
    for (const text of ['02 Dec 2026', '1:30 AM', '03 Jan 2027', '12:15 AM']) expect(row.textContent).toContain(text);
    for (const text of ['01 Dec 2026', '11:30 AM', '02 Jan 2027', '10:15 AM'])
      expect(row.textContent).not.toContain(text);
    expect(screen.getByTestId('suppression-time-zone').textContent).toBe('Times on this page are in Asia/Tokyo.');
  });

  it('says so in Japanese too', async () => {
    process.env.TZ = 'America/New_York';
    serveSoftBounce();
    await showIn('ja');
    const row = await screen.findByTestId('suppression-row');
    for (const text of ['2026年12月2日', '午前1:30', '2027年1月3日', '午前0:15'])
      expect(row.textContent).toContain(text);
    expect(screen.getByTestId('suppression-time-zone').textContent).toBe('このページの時刻はすべて Asia/Tokyo です。');
  });
});

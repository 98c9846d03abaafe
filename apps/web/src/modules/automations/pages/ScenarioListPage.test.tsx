import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { ScenarioListPage } from './ScenarioListPage';

const scenario = (id: string, name: string, status: 'draft' | 'running', timeZone = 'Asia/Tokyo') => ({
  id,
  name,
  description: '',
  status,
  hostId: 'brand',
  hostName: 'さくらホテルズ',
  hostLevel: 'brand',
  editable: true,
  startsAt: null,
  endsAt: null,
  createdAt: '2026-11-20T00:00:00Z',
  updatedAt: '2026-11-21T00:00:00Z',
  createdBy: { id: 'u1', name: 'Hanako Sato' },
  updatedBy: null,
  run: {
    period: { kind: 'long_run' },
    startDate: null,
    startTime: null,
    endDate: null,
    endTime: null,
    timeZone,
    sendTime: '09:00',
  },
  entered: 0,
  active: 0,
});

describe('the scenario list', () => {
  it('filters by status with the counts, pages, and offers each state its actions', async () => {
    const calls = mockFetch((method, url) => {
      if (method === 'GET' && url.pathname === '/v1/scenarios') {
        const items = [scenario('s1', 'Pre-arrival', 'running'), scenario('s2', 'Birthday', 'draft')];
        return {
          body: {
            data: {
              items,
              total: 2,
              page: 1,
              pageSize: 20,
              byStatus: { draft: 1, scheduled: 0, running: 1, completed: 0, stopped: 0, archived: 0 },
            },
          },
        };
      }
      return undefined;
    });
    await renderWithProviders(<ScenarioListPage />, {
      path: '/automations/scenario',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await waitFor(() => expect(screen.getAllByTestId('scenario-row')).toHaveLength(2));
    const status = screen.getByLabelText('Status') as HTMLSelectElement;
    expect([...status.options].slice(0, 4).map((o) => o.textContent)).toEqual([
      'All statuses',
      'Draft (1)',
      'Scheduled (0)',
      'Running (1)',
    ]);
    expect(screen.getByTestId('scenario-range').textContent).toBe('1–2 of 2');
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Actions for Pre-arrival' }));
    const stop = await screen.findByTestId('scenario-action-stop');
    expect(stop.textContent).toBe('Stop');
    expect(screen.getByTestId('scenario-action-summary').textContent).toBe('Summary');
    expect(screen.queryByTestId('scenario-action-edit')).toBeNull();

    fireEvent.change(status, { target: { value: 'running' } });
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('status') === 'running')).toBe(true));
    const last = calls.filter((c) => c.url.pathname === '/v1/scenarios').at(-1)!;
    expect(last.url.searchParams.get('page')).toBe('1');
  });

  // A stopped scenario can be restarted (a draft again, then run afresh): the warning says what a
  // stop cannot undo, the halted guests' journeys, and never that the scenario cannot run again.
  it.each([
    [
      'en',
      'Actions for Pre-arrival',
      'Stopping prevents new customers from entering and halts current ones. This cannot be undone: customers halted in “Pre-arrival” will not pick up where they stopped, even if it is restarted.',
    ],
    [
      'ja',
      'Pre-arrival の操作',
      '停止すると新しい顧客は参加できなくなり、進行中の顧客も止まります。この操作は元に戻せません。「Pre-arrival」を再実行しても、止まった顧客が途中から再開することはありません。',
    ],
  ] as const)(
    'warns before a stop what it cannot undo, not that the scenario cannot run again (%s)',
    async (language, menu, warning) => {
      mockFetch((method, url) => {
        if (method === 'GET' && url.pathname === '/v1/scenarios') {
          const items = [scenario('s1', 'Pre-arrival', 'running')];
          const byStatus = { draft: 0, scheduled: 0, running: 1, completed: 0, stopped: 0, archived: 0 };
          return { body: { data: { items, total: 1, page: 1, pageSize: 20, byStatus } } };
        }
        return undefined;
      });
      await renderWithProviders(<ScenarioListPage />, {
        path: '/automations/scenario',
        language,
        queryClient: signedInClient(profileFixture('brand', 'admin')),
      });
      fireEvent.click(await screen.findByRole('button', { name: menu }));
      fireEvent.click(await screen.findByTestId('scenario-action-stop'));
      const dialog = await screen.findByRole('dialog');
      expect(within(dialog).getByText(warning)).toBeTruthy();
    },
  );

  describe('in a browser in another time zone than the scenarios', () => {
    const browserZone = process.env.TZ;
    afterEach(() => {
      if (browserZone === undefined) delete process.env.TZ;
      else process.env.TZ = browserZone;
    });

    it("shows when each was made and changed in the scenarios' time zone, named under the list, and a row in another zone names its own", async () => {
      process.env.TZ = 'America/New_York';
      mockFetch((method, url) => {
        if (method !== 'GET' || url.pathname !== '/v1/scenarios') return undefined;
        const items = [
          scenario('s1', 'Pre-arrival', 'running'),
          scenario('s2', 'Okinawa birthday', 'draft'),
          scenario('s3', 'Harbor welcome', 'draft', 'Pacific/Honolulu'),
        ];
        const byStatus = { draft: 2, scheduled: 0, running: 1, completed: 0, stopped: 0, archived: 0 };
        return { body: { data: { items, total: 3, page: 1, pageSize: 20, byStatus } } };
      });
      await renderWithProviders(<ScenarioListPage />, {
        path: '/automations/scenario',
        queryClient: signedInClient(profileFixture('brand', 'admin')),
      });
      await waitFor(() => expect(screen.getAllByTestId('scenario-row')).toHaveLength(3));
      const [tokyo, , honolulu] = screen.getAllByTestId('scenario-row') as [HTMLElement, HTMLElement, HTMLElement];
      // Made at 2026-11-20 00:00 UTC: 9:00 in Tokyo (7:00 PM the day before in the browser's New York).
      expect(within(tokyo).getByText(/by Hanako Sato/).textContent).toBe('20 Nov 2026, 9:00 AM by Hanako Sato');
      within(tokyo).getByText('21 Nov 2026, 9:00 AM');
      expect(within(honolulu).getByText(/by Hanako Sato/).textContent).toBe(
        '19 Nov 2026, 2:00 PM (Pacific/Honolulu) by Hanako Sato',
      );
      expect(screen.getByTestId('scenario-time-zone').textContent).toBe('Times on this page are in Asia/Tokyo.');
    });
  });
});

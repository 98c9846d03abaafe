import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { TemplateListPage } from './TemplateListPage';

const summary = (id: string, name: string, editable: boolean, timeZone = 'Asia/Tokyo') => ({
  id,
  name,
  description: '',
  coverImageUrl: '/files/logos/' + 'a'.repeat(64) + '.png',
  defaultLanguage: 'ja',
  languages: ['ja'],
  owner: { hostId: 'brand', level: 'brand', name: 'さくらホテルズ' },
  editable,
  version: 1,
  createdAt: '2026-11-20T00:00:00Z',
  updatedAt: '2026-11-20T00:00:00Z',
  updatedByName: null,
  timeZone,
});

function serve(items: ReturnType<typeof summary>[], inUse: string[] = ['Winter sale']) {
  return mockFetch((method, url) => {
    if (method === 'GET' && url.pathname === '/v1/templates') {
      return { body: { data: { items, total: items.length, page: 1, pageSize: 12 } } };
    }
    if (method === 'DELETE' && url.pathname === '/v1/templates/t1') {
      return {
        status: 409,
        body: {
          error: {
            code: 'template_in_use',
            message: 'The server’s English text, never shown.',
            params: { campaign: inUse[0], campaigns: inUse },
          },
        },
      };
    }
    if (method === 'GET' && url.pathname === '/v1/templates/t1/report')
      return { body: { data: { campaigns: [], timeZone: 'Asia/Tokyo' } } };
    if (method === 'GET' && url.pathname === '/v1/templates/t2/report')
      return {
        body: {
          data: {
            timeZone: 'Pacific/Honolulu',
            campaigns: [
              {
                campaignId: 'c1',
                campaignName: 'Winter sale',
                status: 'pending',
                paused: false,
                sentAt: '2026-12-03T12:33:00.000Z',
                recipients: 63,
                delivered: 0,
                opened: 0,
                clicked: 0,
              },
            ],
          },
        },
      };
    return undefined;
  });
}

async function openMenu(name: string) {
  fireEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
}

describe('the template list', () => {
  // The campaign in use may be scheduled, sending or paused: the refusal never calls it scheduled.
  // Each unfinished campaign holds the template: the refusal names them, three and the count of the rest.
  const one = ['Winter sale'];
  const five = ['Autumn', 'Spring', 'Summer', 'Winter', 'Year end'];
  it.each([
    [
      'en',
      one,
      'Actions for Pre-arrival',
      'Delete',
      'This template is used by "Winter sale", a campaign that has not finished. Cancel that campaign, or wait until it has been sent, before deleting the template.',
    ],
    [
      'ja',
      one,
      'Pre-arrivalの操作',
      '削除',
      'このテンプレートは、まだ終わっていないキャンペーン「Winter sale」で使われています。キャンペーンを取り消すか、配信が終わってから削除してください。',
    ],
    [
      'en',
      five,
      'Actions for Pre-arrival',
      'Delete',
      'This template is used by campaigns that have not finished: "Autumn", "Spring", "Summer" and 2 more. Cancel those campaigns, or wait until they have been sent, before deleting the template.',
    ],
    [
      'ja',
      five,
      'Pre-arrivalの操作',
      '削除',
      'このテンプレートは、まだ終わっていないキャンペーン「Autumn」、「Spring」、「Summer」ほか2件で使われています。キャンペーンを取り消すか、配信が終わってから削除してください。',
    ],
  ] as const)(
    'shows the refusal to delete a template unfinished campaigns use, naming them (%s, %j)',
    async (language, campaigns, menuLabel, deleteLabel, refusal) => {
      serve([summary('t1', 'Pre-arrival', true)], [...campaigns]);
      await renderWithProviders(<TemplateListPage />, {
        path: '/templates',
        language,
        queryClient: signedInClient(profileFixture('hotel', 'admin')),
      });
      fireEvent.click(await screen.findByRole('button', { name: menuLabel }));
      fireEvent.click(await screen.findByRole('menuitem', { name: deleteLabel }));
      const dialog = await screen.findByRole('dialog');
      fireEvent.click(within(dialog).getByRole('button', { name: deleteLabel }));
      expect((await within(dialog).findByTestId('delete-refusal')).textContent).toBe(refusal);
    },
  );

  it('names two campaigns that use the template', async () => {
    serve([summary('t1', 'Pre-arrival', true)], ['Spring', 'Winter sale']);
    await renderWithProviders(<TemplateListPage />, {
      path: '/templates',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    await openMenu('Pre-arrival');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByTestId('delete-refusal')).textContent).toBe(
      'This template is used by campaigns that have not finished: "Spring" and "Winter sale". Cancel those campaigns, or wait until they have been sent, before deleting the template.',
    );
  });

  it('says No Data Found in the report of a template no campaign has used', async () => {
    serve([summary('t1', 'Pre-arrival', true)]);
    await renderWithProviders(<TemplateListPage />, {
      path: '/templates',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    await openMenu('Pre-arrival');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'View report' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('No Data Found')).toBeTruthy();
  });

  it("names each campaign's status as the campaign list does and its time in the host's zone, named", async () => {
    serve([summary('t2', 'Winter', true, 'Pacific/Honolulu')]);
    // The report answers only when let go, to see what the dialog shows while it loads.
    let letGo = () => {};
    const answered = new Promise<void>((resolve) => (letGo = resolve));
    const served = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/report')) await answered;
      return served(input, init);
    }) as typeof fetch;
    await renderWithProviders(<TemplateListPage />, {
      path: '/templates',
      queryClient: signedInClient(profileFixture('hotel', 'staff')),
    });
    await openMenu('Winter');
    fireEvent.click(await screen.findByRole('menuitem', { name: 'View report' }));
    // While it loads, a loader rather than an empty table with a note naming no zone.
    expect(within(await screen.findByRole('dialog')).getByTestId('template-report-loading')).toBeTruthy();
    expect(screen.queryByTestId('template-report-time-zone')).toBeNull();
    letGo();
    const table = await within(await screen.findByRole('dialog')).findByTestId('template-report');
    const cells = within(table)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 4)).toEqual(['Winter sale', 'Pending', '03 Dec 2026, 2:33 AM', '63']);
    expect(screen.getByTestId('template-report-time-zone').textContent).toBe(
      'Times in this report are in Pacific/Honolulu.',
    );
  });

  /** The actions a card's menu offers. */
  async function menuItems(name: string): Promise<string[]> {
    await openMenu(name);
    return (await screen.findAllByRole('menuitem')).map((item) => item.textContent ?? '');
  }

  it('offers a viewer the report only, a staff member no delete, an admin everything', async () => {
    serve([summary('t1', 'Pre-arrival', true)]);
    const viewer = await renderWithProviders(<TemplateListPage />, {
      path: '/templates',
      queryClient: signedInClient(profileFixture('hotel', 'viewer')),
    });
    expect(await menuItems('Pre-arrival')).toEqual(['View', 'View report']);
    expect(screen.queryByRole('button', { name: 'Create template' })).toBeNull();
    viewer.unmount();

    serve([summary('t1', 'Pre-arrival', true)]);
    const staff = await renderWithProviders(<TemplateListPage />, {
      path: '/templates',
      queryClient: signedInClient(profileFixture('hotel', 'staff')),
    });
    expect(await menuItems('Pre-arrival')).toEqual(['Edit', 'Duplicate', 'View report']);
    staff.unmount();

    serve([summary('t1', 'Pre-arrival', true)]);
    await renderWithProviders(<TemplateListPage />, {
      path: '/templates',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    expect(await menuItems('Pre-arrival')).toEqual(['Edit', 'Duplicate', 'View report', 'Delete']);
    expect(screen.getByRole('button', { name: 'Create template' })).toBeTruthy();
  });

  it('marks a brand template read-only below the brand and offers no edit or delete for it', async () => {
    serve([summary('t2', 'Brand welcome', false)]);
    await renderWithProviders(<TemplateListPage />, {
      path: '/templates',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    await waitFor(() =>
      expect(screen.getByTestId('template-read-only').textContent).toBe('Read-only · さくらホテルズ'),
    );
    expect(await menuItems('Brand welcome')).toEqual(['View', 'Duplicate', 'View report']);
  });

  // The console's language, not the profile's: the copy is named in the language the user reads.
  it.each([
    ['en', 'ja', 'Actions for Pre-arrival', 'Duplicate'],
    ['ja', 'en', 'Pre-arrivalの操作', '複製'],
  ] as const)(
    'asks the server for a copy named in the console language (%s), whatever the profile says (%s)',
    async (language, profileLanguage, menu, duplicate) => {
      const calls = serve([summary('t1', 'Pre-arrival', true)]);
      await renderWithProviders(<TemplateListPage />, {
        path: '/templates',
        language,
        queryClient: signedInClient(profileFixture('hotel', 'admin', { language: profileLanguage })),
      });
      fireEvent.click(await screen.findByRole('button', { name: menu }));
      fireEvent.click(await screen.findByRole('menuitem', { name: duplicate }));
      await waitFor(() => {
        const asked = calls.find((c) => c.method === 'POST' && c.url.pathname === '/v1/templates/t1/duplicate');
        expect(asked && JSON.parse(String(asked.init.body))).toEqual({ language });
      });
    },
  );

  describe('in a browser in another time zone than the hosts', () => {
    const browserZone = process.env.TZ;
    afterEach(() => {
      if (browserZone === undefined) delete process.env.TZ;
      else process.env.TZ = browserZone;
    });

    it("shows when each was changed in its host's time zone, named under the grid, and a card in another zone names its own", async () => {
      process.env.TZ = 'America/New_York';
      serve([summary('t1', 'Pre-arrival', true), summary('t2', 'Harbor welcome', false, 'Pacific/Honolulu')]);
      await renderWithProviders(<TemplateListPage />, {
        path: '/templates',
        queryClient: signedInClient(profileFixture('hotel', 'admin')),
      });
      await waitFor(() => expect(screen.getAllByTestId('template-card')).toHaveLength(2));
      const [tokyo, honolulu] = screen.getAllByTestId('template-card') as [HTMLElement, HTMLElement];
      // Changed at 2026-11-20 00:00 UTC: 9:00 in Tokyo (7:00 PM the day before in the browser's New York).
      expect(within(tokyo).getByTestId('template-updated').textContent).toBe('Updated 20 Nov 2026, 9:00 AM');
      expect(within(honolulu).getByTestId('template-updated').textContent).toBe(
        'Updated 19 Nov 2026, 2:00 PM (Pacific/Honolulu)',
      );
      expect(screen.getByTestId('template-time-zone').textContent).toBe('Times on this page are in Asia/Tokyo.');
    });
  });
});

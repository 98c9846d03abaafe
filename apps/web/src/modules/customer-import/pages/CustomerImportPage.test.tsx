import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TCustomerImport } from '@yado/contracts/customer-imports';
import { describe, expect, it } from 'vitest';
import { profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { CustomerImportPage } from './CustomerImportPage';

const reviewed: TCustomerImport = {
  id: 'imp1',
  status: 'reviewed',
  fileName: 'guests.csv',
  fileSize: 2048,
  encoding: 'utf-8',
  hotelId: null,
  hotelName: null,
  columns: [{ column: 1, header: '電話番号', field: 'phone' }],
  progress: { done: 3, total: 3 },
  counts: { total: 3, new: 3, updated: 0, unchanged: 0, duplicates: 0, failed: 0 },
  result: null,
  emailReception: null,
  segmentId: null,
  segmentAdded: null,
  error: null,
  createdAt: '2026-11-24T00:00:00Z',
  finishedAt: null,
  resumedAt: null,
};

describe('customer import page', () => {
  it('tells a viewer only that they have no permission, not that there is nothing yet', async () => {
    mockFetch(() => undefined);
    await renderWithProviders(<CustomerImportPage />, {
      path: '/customer-list/import',
      queryClient: signedInClient(profileFixture('hotel', 'viewer')),
    });
    const empty = screen.getByTestId('empty-state');
    expect(empty.textContent).toBe("Oops! It looks like you don't have permission to access our system.");
  });

  it('asks before cancelling with buttons that say what they do: keep it, or cancel it', async () => {
    const cancels: string[] = [];
    mockFetch((method, url) => {
      if (url.pathname !== '/v1/customer-imports/imp1') return { body: { data: { items: [], nextAfter: null } } };
      if (method === 'DELETE') {
        cancels.push(url.pathname);
        return { body: { data: { ...reviewed, status: 'cancelled' } } };
      }
      return { body: { data: cancels.length ? { ...reviewed, status: 'cancelled' } : reviewed } };
    });
    await renderWithProviders(<CustomerImportPage />, {
      path: '/customer-list/import?id=imp1',
      pattern: '/customer-list/import',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel import' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this import?' });
    const buttons = within(dialog)
      .getAllByRole('button')
      .map((b) => b.textContent)
      .filter((text) => text);
    expect(buttons).toEqual(['Keep the import', 'Cancel the import']);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep the import' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(cancels).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Cancel import' }));
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Cancel this import?' })).getByRole('button', {
        name: 'Cancel the import',
      }),
    );
    await waitFor(() => expect(cancels).toEqual(['/v1/customer-imports/imp1']));
  });

  it('names the same choices in Japanese', async () => {
    mockFetch((_method, url) =>
      url.pathname === '/v1/customer-imports/imp1'
        ? { body: { data: reviewed } }
        : { body: { data: { items: [], nextAfter: null } } },
    );
    await renderWithProviders(<CustomerImportPage />, {
      path: '/customer-list/import?id=imp1',
      pattern: '/customer-list/import',
      language: 'ja',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'インポートを取り消す' }));
    const dialog = await screen.findByRole('dialog', { name: 'このインポートを取り消しますか？' });
    expect(within(dialog).getByRole('button', { name: 'インポートを続ける' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'インポートを取り消す' })).toBeTruthy();
  });
});

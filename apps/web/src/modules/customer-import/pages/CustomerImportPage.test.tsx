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

  it('says an import it cannot open is not found, on its own, not inside an empty upload form', async () => {
    // What the server answers for another hotel's or another brand's import.
    mockFetch((_method, url) =>
      url.pathname === '/v1/customer-imports/imp1'
        ? { status: 404, body: { error: { code: 'not_found', message: 'Page not found.' } } }
        : undefined,
    );
    await renderWithProviders(<CustomerImportPage />, {
      path: '/customer-list/import?id=imp1',
      pattern: '/customer-list/import',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    const missing = await screen.findByTestId('import-not-found');
    expect(within(missing).getByTestId('empty-state').textContent).toBe(
      'Import not foundThis import does not exist, or your role cannot see it.',
    );
    expect(screen.queryByText('Drag a CSV file here, or click to choose one')).toBeNull();
    expect(screen.queryByText('Page not found.')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    // The way on: a new import.
    fireEvent.click(within(missing).getByRole('button', { name: 'Import another file' }));
    await screen.findByText('Drag a CSV file here, or click to choose one');
  });

  it('says on completion how many rows were added, updated and skipped, and shows the skipped rows', async () => {
    const completed: TCustomerImport = {
      ...reviewed,
      status: 'completed',
      counts: { total: 9, new: 3, updated: 1, unchanged: 1, duplicates: 1, failed: 3 },
      result: { inserted: 3, updated: 1, unchanged: 1, allocated: 0 },
      emailReception: 'booking',
      finishedAt: '2026-11-24T00:01:00Z',
    };
    const failedRow = (row: number, field: string, code: string, message: string) => ({
      row,
      outcome: 'failed',
      problems: [{ field, code, message }],
      duplicateOf: null,
      lastName: '森',
      firstName: String(row),
      phone: `0805050000${row}`,
    });
    mockFetch((_method, url) => {
      if (url.pathname === '/v1/customer-imports/imp1') return { body: { data: completed } };
      if (url.pathname === '/v1/customer-imports/imp1/rows') {
        const items =
          url.searchParams.get('outcome') === 'failed'
            ? [
                failedRow(2, 'gender', 'import_invalid_gender', ''),
                failedRow(3, 'phone', 'use_numbers_only', ''),
                failedRow(4, 'dateOfBirth', 'invalid_date', ''),
              ]
            : [{ ...failedRow(6, 'phone', 'x', ''), outcome: 'duplicate', problems: [], duplicateOf: 5 }];
        return { body: { data: { items, nextAfter: null } } };
      }
      return undefined;
    });
    await renderWithProviders(<CustomerImportPage />, {
      path: '/customer-list/import?id=imp1',
      pattern: '/customer-list/import',
      queryClient: signedInClient(profileFixture('hotel', 'admin')),
    });
    const result = await screen.findByTestId('import-result');
    expect(within(result).getByTestId('import-result-summary').textContent).toBe('3 added, 1 updated, 4 skipped.');
    expect(within(result).getByTestId('import-result-skipped').textContent).toBe(
      'Skipped43 with errors, 1 repeated in the file',
    );
    const skipped = within(result).getByTestId('import-skipped-rows');
    const failed = await within(skipped).findByTestId('import-rows-failed');
    expect((await within(failed).findAllByTestId('import-row')).map((r) => r.lastElementChild?.textContent)).toEqual([
      'Gender: Use male, female or prefer not to say.',
      'Phone number: Use only numerical characters.',
      'Date of birth: Enter a valid date.',
    ]);
    expect(within(skipped).getByTestId('import-download-failures').textContent).toBe('Download failed rows (CSV)');
    fireEvent.click(within(skipped).getByRole('tab', { name: 'Repeated in the file (1)' }));
    const repeated = await within(skipped).findByTestId('import-rows-identical');
    expect((await within(repeated).findByTestId('import-row')).lastElementChild?.textContent).toBe('Same as row 5');
  });

  it('shows another host’s import read only: no next step, no run, no cancel', async () => {
    mockFetch((_method, url) =>
      url.pathname === '/v1/customer-imports/imp1'
        ? { body: { data: { ...reviewed, readOnly: true } } }
        : { body: { data: { items: [], nextAfter: null } } },
    );
    await renderWithProviders(<CustomerImportPage />, {
      path: '/customer-list/import?id=imp1',
      pattern: '/customer-list/import',
      queryClient: signedInClient(profileFixture('brand', 'admin')),
    });
    await screen.findByTestId('import-read-only');
    expect(screen.getByTestId('import-count-new').textContent).toContain('3');
    expect(screen.queryByTestId('import-next')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel import' })).toBeNull();
  });
});

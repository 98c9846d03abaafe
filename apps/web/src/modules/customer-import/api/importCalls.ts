import * as importsApi from '@yado/contracts/customer-imports';
import type { TCustomerImport, TEmailReception } from '@yado/contracts/customer-imports';
import * as managementApi from '@yado/contracts/management';
import { queryOptions } from '@tanstack/react-query';
import { request } from '../../../lib/http/request';
import { readToken } from '../../../lib/session/storage';
import { roleSelectorHeaders, storedRoleSelector } from '../../../lib/session/roleSelector';

export const IMPORT_QUERY_KEY = ['customer-imports'] as const;

/** Statuses a background job is still working on: the page polls while it sees one. */
export const RUNNING_STATUSES: TCustomerImport['status'][] = ['reviewing', 'queued', 'importing'];

export const importQuery = (id: string) =>
  queryOptions({
    queryKey: [...IMPORT_QUERY_KEY, id],
    queryFn: ({ signal }) => request(importsApi.get, { params: { id }, signal }),
    refetchInterval: (query) => (query.state.data && RUNNING_STATUSES.includes(query.state.data.status) ? 700 : false),
  });

export const importRowsQuery = (id: string, outcome: 'failed' | 'identical', after: number) =>
  queryOptions({
    queryKey: [...IMPORT_QUERY_KEY, id, 'rows', outcome, after],
    queryFn: ({ signal }) => request(importsApi.rows, { params: { id }, query: { outcome, after, limit: 50 }, signal }),
  });

export const hotelChoicesQuery = queryOptions({
  queryKey: ['customer-imports', 'hotels'],
  queryFn: ({ signal }) => request(managementApi.hotels.list, { query: { pageSize: 100, sort: 'name' }, signal }),
});

export function uploadImport(file: File, hotelId: string | null): Promise<TCustomerImport> {
  const form = new FormData();
  form.append('file', file);
  return request(importsApi.upload, { body: form, query: { hotelId: hotelId ?? undefined } });
}

/** Runs the import; the customers it adds or updates join `segmentId` (a static segment) if given. */
export function confirmImport(
  id: string,
  emailReception: TEmailReception,
  segmentId?: string,
): Promise<TCustomerImport> {
  return request(importsApi.confirm, { params: { id }, body: { emailReception, segmentId } });
}

export function cancelImport(id: string): Promise<TCustomerImport> {
  return request(importsApi.cancel, { params: { id } });
}

/**
 * A CSV of the import API as a download. A plain link cannot carry the bearer token, so the file is
 * fetched with it and handed to the browser as a blob.
 */
async function downloadCsv(path: string, fileName: string): Promise<void> {
  const token = readToken();
  const response = await fetch(path, {
    headers: {
      ...(token ? { Authorization: `Bearer ${token.accessToken}` } : {}),
      ...roleSelectorHeaders(storedRoleSelector()),
    },
  });
  if (!response.ok) throw new Error(`download ${fileName}: ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/** The failed rows with their reasons. */
export function downloadFailures(id: string, language: 'ja' | 'en'): Promise<void> {
  return downloadCsv(
    `/v1/customer-imports/${encodeURIComponent(id)}/failures.csv?lang=${language}`,
    'import-failures.csv',
  );
}

/** A file to start from: every column an import reads, and one example customer. */
export function downloadSample(language: 'ja' | 'en'): Promise<void> {
  return downloadCsv(
    `/v1/customer-imports/sample.csv?lang=${language}`,
    language === 'ja' ? 'customers-sample.csv' : 'customers-sample-en.csv',
  );
}

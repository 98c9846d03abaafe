import * as templatesApi from '@yado/contracts/templates';
import type {
  TEMPLATE_SORTS,
  TTemplate,
  TTemplateContent,
  TTemplateContents,
  TTemplateLanguage,
} from '@yado/contracts/templates';
import { TEMPLATE_IMAGE_MAX_BYTES } from '@yado/contracts/templates';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { isApiError } from '../../../lib/http/ApiError';
import { request } from '../../../lib/http/request';
import type { TLanguage } from '../../../lib/session/storage';

export type TTemplateSort = (typeof TEMPLATE_SORTS)[number];
export type TUpdateTemplate = z.input<typeof templatesApi.ZUpdateTemplate>;
export type TCreateTemplate = z.input<typeof templatesApi.ZCreateTemplate>;

export const TEMPLATES_QUERY_KEY = ['templates'] as const;
export const TEMPLATES_PAGE_SIZE = 12;

export interface TTemplateFilters {
  search: string;
  sort: TTemplateSort;
  page: number;
}

export const templateListQuery = (filters: TTemplateFilters) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, 'list', filters],
    queryFn: ({ signal }) =>
      request(templatesApi.list, {
        query: {
          search: filters.search || undefined,
          sort: filters.sort,
          page: filters.page,
          pageSize: TEMPLATES_PAGE_SIZE,
        },
        signal,
      }),
    // The last page stays while the next one loads (as keepPreviousData, which would pull query
    // internals out of the first page's download into a chunk of their own).
    placeholderData: (previous) => previous,
  });

export const templateQuery = (id: string) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, 'one', id],
    queryFn: ({ signal }) => request(templatesApi.get, { params: { id }, signal }),
    // The editor owns the template once opened; a refetch must not overwrite what is being typed.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** The server's rendering of the saved template (the list's cover), once per version and language. */
export const savedPreviewQuery = (id: string, version: number, language: TTemplateLanguage) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, 'preview', id, version, language],
    queryFn: ({ signal }) => request(templatesApi.preview, { params: { id }, body: { language }, signal }),
    staleTime: Infinity,
  });

export const templateReportQuery = (id: string, enabled: boolean) =>
  queryOptions({
    queryKey: [...TEMPLATES_QUERY_KEY, 'report', id],
    queryFn: ({ signal }) => request(templatesApi.report, { params: { id }, signal }),
    enabled,
  });

export function createTemplate(input: TCreateTemplate): Promise<TTemplate> {
  return request(templatesApi.create, { body: input });
}

export function updateTemplate(id: string, input: TUpdateTemplate, signal?: AbortSignal): Promise<TTemplate> {
  return request(templatesApi.update, { params: { id }, body: input, signal });
}

/** A copy, named "<name> (copy)" in `language` (the console's): 誕生日（コピー） in Japanese. */
export function duplicateTemplate(id: string, language: TLanguage): Promise<TTemplate> {
  return request(templatesApi.duplicate, { params: { id }, body: { language } });
}

export function deleteTemplate(id: string) {
  return request(templatesApi.remove, { params: { id } });
}

/** The unsaved contents of one language as the server renders them, with a customer's data if chosen. */
export function previewContents(
  id: string,
  language: TTemplateLanguage,
  contents: TTemplateContent | undefined,
  customerId: string | undefined,
  signal?: AbortSignal,
) {
  return request(templatesApi.preview, { params: { id }, body: { language, contents, customerId }, signal });
}

export function testSend(id: string, emails: string[], language: TTemplateLanguage, customerId: string | undefined) {
  return request(templatesApi.testSend, { params: { id }, body: { emails, language, customerId } });
}

const IMAGE_TYPES = ['image/jpeg', 'image/png'];
const IMAGE_CODES = new Set(['logo_wrong_type', 'logo_too_big', 'image_fetch_failed', 'upload_failed']);

/**
 * The catalogue key of what is wrong with a chosen image before it is sent (spec section 8), or
 * null. The server checks the content again.
 */
export function imageFileProblem(file: File): string | null {
  const named = /\.(jpe?g|png)$/i.test(file.name);
  if ((file.type !== '' && !IMAGE_TYPES.includes(file.type)) || (file.type === '' && !named)) {
    return 'errors.logo_wrong_type';
  }
  if (file.size >= TEMPLATE_IMAGE_MAX_BYTES) return 'errors.logo_too_big';
  return null;
}

/** The catalogue key for a refused image upload or fetch. */
export function imageErrorKey(error: unknown, fallback: 'upload_failed' | 'image_fetch_failed'): string {
  const code = isApiError(error) ? (error.fields?.file?.code ?? error.fields?.url?.code ?? error.code) : '';
  return `errors.${IMAGE_CODES.has(code) ? code : fallback}`;
}

export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  return (await request(templatesApi.uploadImage, { body: form })).url;
}

export async function imageFromUrl(url: string): Promise<string> {
  return (await request(templatesApi.imageFromUrl, { body: { url } })).url;
}

/** What autosave sends: both language versions, as the editor holds them. */
export function contentsPayload(contents: TTemplateContents): TTemplateContents {
  return { ja: contents.ja ?? null, en: contents.en ?? null };
}

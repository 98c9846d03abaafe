import * as segmentsApi from '@yado/contracts/segments';
import type {
  SEGMENT_SORTS,
  TFilter,
  TMemberFileReport,
  TSegment,
  TSegmentInput,
  TSegmentType,
} from '@yado/contracts/segments';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { request } from '../../../lib/http/request';
import type { TLanguage } from '../../../lib/session/storage';

export type TSegmentSort = (typeof SEGMENT_SORTS)[number];
export type TMemberSelection = z.input<typeof segmentsApi.ZMemberSelection>;

export const SEGMENTS_QUERY_KEY = ['segments'] as const;

export interface TSegmentFilters {
  search: string;
  type: TSegmentType | '';
  hotelId: string;
  sort: TSegmentSort;
}

export const segmentListQuery = (filters: TSegmentFilters, page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'list', filters, page, pageSize],
    queryFn: ({ signal }) =>
      request(segmentsApi.list, {
        query: {
          search: filters.search || undefined,
          type: filters.type || undefined,
          hotelId: filters.hotelId || undefined,
          sort: filters.sort,
          page,
          pageSize,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** Static segments the acting host may add members to (the "add to segments" choices). */
export const staticSegmentChoicesQuery = (search: string, enabled = true) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'static-choices', search],
    queryFn: async ({ signal }) =>
      (
        await request(segmentsApi.list, {
          query: { type: 'static', search: search || undefined, sort: 'name', page: 1, pageSize: 100 },
          signal,
        })
      ).items.filter((segment) => segment.editable),
    enabled,
    placeholderData: keepPreviousData,
  });

/** Every segment in reach by name, for "Why is this guest in?" from a customer's page. */
export const segmentChoicesQuery = (search: string, enabled = true) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'choices', search],
    queryFn: async ({ signal }) =>
      (
        await request(segmentsApi.list, {
          query: { search: search || undefined, sort: 'name', page: 1, pageSize: 100 },
          signal,
        })
      ).items,
    enabled,
    placeholderData: keepPreviousData,
  });

export const segmentQuery = (id: string) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'one', id],
    queryFn: ({ signal }) => request(segmentsApi.get, { params: { id }, signal }),
  });

export const segmentUsesQuery = (id: string, enabled: boolean) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'uses', id],
    queryFn: ({ signal }) => request(segmentsApi.uses, { params: { id }, signal }),
    enabled,
  });

export const memberPageQuery = (id: string, search: string, cursor: string | undefined, limit: number) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'members', id, search, cursor ?? null, limit],
    queryFn: ({ signal }) =>
      request(segmentsApi.members, { params: { id }, query: { search: search || undefined, cursor, limit }, signal }),
    placeholderData: keepPreviousData,
  });

/** The member list's page sizes; it opens at the first. */
export const MEMBER_PAGE_SIZES = [20, 50, 100] as const;

/**
 * The acting host's time zone, as the member list's pages name it: read from the page the member
 * list opens at, so the segment's page asks for it once.
 */
export const hostTimeZoneQuery = (id: string) =>
  queryOptions({
    ...memberPageQuery(id, '', undefined, MEMBER_PAGE_SIZES[0]),
    select: (page) => page.timeZone,
  });

/** The live count of an unsaved filter: the whole filter and each top-level group. */
export const filterCountQuery = (filter: TFilter | null) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'count', filter],
    queryFn: ({ signal }) => request(segmentsApi.count, { body: { filter: filter! }, signal }),
    enabled: filter !== null,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    retry: false,
  });

export const explanationQuery = (segmentId: string, customerId: string) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'explain', segmentId, customerId],
    queryFn: ({ signal }) => request(segmentsApi.explain, { params: { id: segmentId, customerId }, signal }),
    enabled: Boolean(segmentId && customerId),
  });

export const customerSegmentsQuery = (customerId: string, enabled = true) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'of-customer', customerId],
    queryFn: ({ signal }) => request(segmentsApi.customerSegments, { params: { id: customerId }, signal }),
    enabled,
  });

export type TFieldValueSource = (typeof segmentsApi.FIELD_VALUE_SOURCES)[number];

/** Values for a choice field: the host's hotels, room types and booking sources seen in its bookings. */
export const fieldValuesQuery = (source: TFieldValueSource, enabled = true) =>
  queryOptions({
    queryKey: [...SEGMENTS_QUERY_KEY, 'field-values', source],
    queryFn: ({ signal }) => request(segmentsApi.fieldValues, { query: { source }, signal }),
    enabled,
    staleTime: 60_000,
  });

export function createSegment(input: TSegmentInput): Promise<TSegment> {
  return request(segmentsApi.create, { body: input });
}

export function updateSegment(id: string, input: Omit<TSegmentInput, 'type'>): Promise<TSegment> {
  return request(segmentsApi.update, { params: { id }, body: input });
}

/** A copy named in the console's language ("<name>（コピー）" / "<name> (copy)"), which may not be the profile's. */
export function duplicateSegment(id: string, language: TLanguage): Promise<TSegment> {
  return request(segmentsApi.duplicate, { params: { id }, body: { language } });
}

export function deleteSegment(id: string) {
  return request(segmentsApi.remove, { params: { id } });
}

export function recountSegment(id: string) {
  return request(segmentsApi.recount, { params: { id } });
}

export function addToSegments(segmentIds: string[], selection: TMemberSelection) {
  return request(segmentsApi.addToSegments, { body: { segmentIds, ...selection } });
}

export function removeMembers(id: string, customerIds: string[]) {
  return request(segmentsApi.removeMembers, { params: { id }, body: { customerIds } });
}

export function freezeMembers(id: string, filter: TFilter) {
  return request(segmentsApi.freeze, { params: { id }, body: { filter } });
}

export function importMembers(id: string, file: File): Promise<TMemberFileReport> {
  const form = new FormData();
  form.append('file', file);
  return request(segmentsApi.importMembers, { params: { id }, body: form });
}

/** A one-minute link to the member CSV, for the browser to download (`downloadThroughLink`). */
export async function memberExportLink(id: string, language: TLanguage): Promise<string> {
  const { url } = await request(segmentsApi.createExportLink, { params: { id }, body: { lang: language } });
  return url;
}

// Changed (additive): ZSegment.filter is ZFilterDocument (same shape, no input checks); recursive groups carry OpenAPI ids; ZMembersAdded.total counts members in scope; ZFilterCount.groups lists the groups at every level, each with its path; ZMemberPage.timeZone is the acting host's zone; ZSegmentPage.timeZone too.
import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';
import { ZCustomer, ZCustomerFilter, GENDERS, EMAIL_STATUSES, CONSENT_SOURCES } from './customers.ts';

/**
 * Segmentation (specification sections 2, 3, 5 and 6; issue 10).
 *
 * A segment is dynamic (its filter, evaluated when used) or static (a member list). The filter
 * document below is the one shared contract for the console, the API, the server's SQL compiler,
 * campaigns and scenarios: change it only by adding, and raise FILTER_VERSION when a meaning
 * changes.
 *
 * Meaning of a filter:
 * - The document joins its top-level groups with `join` (and/or).
 * - A group joins its items with its own `join`. Items are conditions or nested groups; the
 *   document is level 0, its groups level 1, and groups nest down to level FILTER_MAX_DEPTH.
 * - The customer conditions of a group test the customer. The booking conditions that are direct
 *   items of one group test ONE booking together ("a booking where hotel is 新宿 and check-in is
 *   in July and amount > 50,000", joined by the group's `join`), and together they stand in the
 *   group as one item that holds when the number of such bookings is at least `bookings.count`
 *   (quantifier `at_least`, default 1) or is zero (quantifier `none`: "has no such booking").
 *   A nested group asks about its own booking.
 * - A segment's scope is its owner host: a hotel's segment sees the customers allocated to that
 *   hotel and only that hotel's bookings; a hotel group's, its hotels'; a brand's, the brand.
 * - Text comparisons ignore letter case. A missing value (no email, no date of birth, no
 *   prefecture) fails every operator except `is_not`, which it passes: `all` on a choice field
 *   means "any value given", so a guest without one is not counted.
 * - Dates and ages are taken in the brand's time zone; "in the last N days" is today and the N
 *   days before it, "in the next N days" today and the N days after it.
 */

export const FILTER_VERSION = 1;
export const FILTER_MAX_DEPTH = 3;
export const FILTER_MAX_CONDITIONS = 50;
/** Most choices one condition may list, and the longest text value. */
export const FILTER_MAX_CHOICES = 200;
export const FILTER_MAX_TEXT = 200;
export const FILTER_MAX_DAYS = 36500;

export const FIELD_TYPES = ['text', 'number', 'date', 'choice'] as const;
export type TFieldType = (typeof FIELD_TYPES)[number];

export const OPERATORS = [
  'is',
  'is_not',
  'contains',
  'starts_with',
  'greater_than',
  'less_than',
  'between',
  'day_is',
  'month_is',
  'year_is',
  'in_last_days',
  'in_next_days',
  'all',
] as const;
export type TOperator = (typeof OPERATORS)[number];

/** Operators allowed for each field type (specification section 3, "Filter operators"). */
export const OPERATORS_BY_TYPE = {
  text: ['is', 'is_not', 'contains', 'starts_with'],
  number: ['is', 'greater_than', 'less_than', 'between'],
  date: ['is', 'between', 'day_is', 'month_is', 'year_is', 'in_last_days', 'in_next_days'],
  choice: ['is', 'is_not', 'all'],
} as const satisfies Record<TFieldType, readonly TOperator[]>;

/** Check-in / check-out "status" of a booking, derived from the booking status. */
export const CHECK_IN_STATUSES = ['checked_in', 'not_checked_in'] as const;
export const CHECK_OUT_STATUSES = ['checked_out', 'not_checked_out'] as const;
export const BOOKING_STATUSES = ['confirmed', 'cancelled', 'checked_in', 'checked_out', 'no_show'] as const;

/**
 * Where a choice field's values come from: a fixed list (`options`), the host's hotels, values
 * seen in the host's bookings (GET /v1/segments/field-values), or the location lists.
 */
export const CHOICE_SOURCES = [
  'options',
  'hotels',
  'room_types',
  'booking_sources',
  'countries',
  'prefectures',
] as const;
export type TChoiceSource = (typeof CHOICE_SOURCES)[number];

interface TFieldDef {
  entity: 'customer' | 'booking';
  type: TFieldType;
  /** For choice fields: where the console finds the values. */
  source?: TChoiceSource;
  /** For choice fields with source `options`: the allowed values. */
  options?: readonly string[];
}

/** The field catalogue: every field a condition may name, its entity and type. */
export const FILTER_FIELDS = {
  // customer
  firstName: { entity: 'customer', type: 'text' },
  lastName: { entity: 'customer', type: 'text' },
  email: { entity: 'customer', type: 'text' },
  phone: { entity: 'customer', type: 'text' },
  idNumber: { entity: 'customer', type: 'text' },
  address: { entity: 'customer', type: 'text' },
  city: { entity: 'customer', type: 'text' },
  age: { entity: 'customer', type: 'number' },
  gender: { entity: 'customer', type: 'choice', source: 'options', options: GENDERS },
  country: { entity: 'customer', type: 'choice', source: 'countries' },
  prefecture: { entity: 'customer', type: 'choice', source: 'prefectures' },
  emailStatus: { entity: 'customer', type: 'choice', source: 'options', options: EMAIL_STATUSES },
  createdDate: { entity: 'customer', type: 'date' },
  /** How the customer came to us (import, booking system, added by hand). */
  source: { entity: 'customer', type: 'choice', source: 'options', options: CONSENT_SOURCES },
  // booking
  bookingDate: { entity: 'booking', type: 'date' },
  checkInStatus: { entity: 'booking', type: 'choice', source: 'options', options: CHECK_IN_STATUSES },
  checkInDate: { entity: 'booking', type: 'date' },
  checkOutStatus: { entity: 'booking', type: 'choice', source: 'options', options: CHECK_OUT_STATUSES },
  checkOutDate: { entity: 'booking', type: 'date' },
  bookingStatus: { entity: 'booking', type: 'choice', source: 'options', options: BOOKING_STATUSES },
  hotel: { entity: 'booking', type: 'choice', source: 'hotels' },
  nights: { entity: 'booking', type: 'number' },
  amount: { entity: 'booking', type: 'number' },
  guests: { entity: 'booking', type: 'number' },
  roomType: { entity: 'booking', type: 'choice', source: 'room_types' },
  bookingSource: { entity: 'booking', type: 'choice', source: 'booking_sources' },
} as const satisfies Record<string, TFieldDef>;

export type TFilterField = keyof typeof FILTER_FIELDS;
export const FILTER_FIELD_NAMES = Object.keys(FILTER_FIELDS) as TFilterField[];

export const isBookingField = (field: string): boolean =>
  (FILTER_FIELDS as Record<string, TFieldDef>)[field]?.entity === 'booking';

/**
 * A condition's value, by operator:
 * - text is/is_not/contains/starts_with: a string of 1..200 characters;
 * - number is/greater_than/less_than: a number; between: [low, high], low <= high (inclusive);
 * - date is: 'YYYY-MM-DD'; between: ['YYYY-MM-DD', 'YYYY-MM-DD'], from <= to (inclusive);
 *   day_is 1..31; month_is 1..12; year_is 1900..2200; in_last_days/in_next_days 0..36500;
 * - choice is/is_not: a non-empty list of values (any of them); all: null (any value given).
 * The schema takes any of these shapes; checkFilter() ties the shape to the field and operator.
 */
export const ZFilterValue = z.union([
  z.string().max(1000),
  z.number(),
  z.array(z.union([z.string().max(1000), z.number()])).max(1000),
  z.null(),
]);
export type TFilterValue = z.infer<typeof ZFilterValue>;

export const ZFilterCondition = z.strictObject({
  kind: z.literal('condition'),
  /** A stable key chosen by the console (for its list keys); optional. */
  id: z.string().max(64).optional(),
  // Plain strings here, so an unknown name is refused by checkFilter at its path (unknown_field),
  // not by the parser with a generic message; the allowed names are in the description.
  field: z
    .string()
    .max(64)
    .describe(`A field of FILTER_FIELDS: ${Object.keys(FILTER_FIELDS).join(', ')}`),
  operator: z
    .string()
    .max(64)
    .describe(`An operator allowed for the field's type: ${OPERATORS.join(', ')}`),
  value: ZFilterValue.default(null),
});
export type TFilterCondition = {
  kind: 'condition';
  id?: string;
  field: TFilterField;
  operator: TOperator;
  value: TFilterValue;
};

export const FILTER_JOINS = ['and', 'or'] as const;
export type TFilterJoin = (typeof FILTER_JOINS)[number];

export const BOOKING_QUANTIFIERS = ['at_least', 'none'] as const;
export const ZBookingMatch = z.strictObject({
  quantifier: z.enum(BOOKING_QUANTIFIERS).default('at_least'),
  /** For `at_least`: how many bookings must match (1..1000). Ignored for `none`. */
  count: z.number().int().min(1).max(1000).default(1),
});
export type TBookingMatch = z.infer<typeof ZBookingMatch>;

export interface TFilterGroup {
  kind: 'group';
  id?: string;
  join: TFilterJoin;
  /** How the group's booking conditions count; absent means "at least 1 such booking". */
  bookings?: TBookingMatch;
  items: (TFilterCondition | TFilterGroup)[];
}

// Recursion is bounded by checkFilter (depth) and by the array caps here, so a deep or huge
// document is refused with a message instead of exhausting the parser.
const ZFilterGroupShape: z.ZodType<unknown> = z
  .lazy(
    () =>
      z.strictObject({
        kind: z.literal('group'),
        id: z.string().max(64).optional(),
        join: z.enum(FILTER_JOINS),
        bookings: ZBookingMatch.optional(),
        items: z.array(z.union([ZFilterCondition, ZFilterGroupShape])).max(FILTER_MAX_CONDITIONS + 20),
      }),
    // Named, so the OpenAPI document can refer to the recursive schema as a component.
  )
  .meta({ id: 'SegmentFilterGroup' });

export interface TFilter {
  version: 1;
  join: TFilterJoin;
  groups: TFilterGroup[];
}

/** A fault in a filter document: where (path, as dotted keys) and what. */
export const FILTER_FAULTS = [
  'too_deep',
  'too_many_conditions',
  'empty_group',
  'no_groups',
  'unknown_field',
  'unknown_operator',
  'operator_not_for_field',
  'value_wrong_type',
  'value_out_of_range',
  'value_too_long',
  'between_order',
  'bad_date',
  'unknown_choice',
] as const;
export type TFilterFaultCode = (typeof FILTER_FAULTS)[number];
export interface TFilterFault {
  /** Dotted path from the document, e.g. `groups.1.items.0.value`. */
  path: string;
  code: TFilterFaultCode;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isIsoDate(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = DATE_RE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInt = (v: unknown, lo: number, hi: number) => isFiniteNumber(v) && Number.isInteger(v) && v >= lo && v <= hi;
/** Numbers in a filter stay within what the columns hold (amounts in yen, ages, nights). */
const NUMBER_LIMIT = 1e12;

function checkValue(
  type: TFieldType,
  def: TFieldDef,
  operator: TOperator,
  value: unknown,
  path: string,
  out: TFilterFault[],
) {
  const at = `${path}.value`;
  const fault = (code: TFilterFaultCode) => out.push({ path: at, code });
  if (type === 'text') {
    if (typeof value !== 'string' || value.trim() === '') return fault('value_wrong_type');
    if (value.length > FILTER_MAX_TEXT) return fault('value_too_long');
    return;
  }
  if (type === 'number') {
    if (operator === 'between') {
      if (!Array.isArray(value) || value.length !== 2 || !value.every(isFiniteNumber)) return fault('value_wrong_type');
      if (value.some((n) => Math.abs(n as number) > NUMBER_LIMIT)) return fault('value_out_of_range');
      if ((value[0] as number) > (value[1] as number)) return fault('between_order');
      return;
    }
    if (!isFiniteNumber(value)) return fault('value_wrong_type');
    if (Math.abs(value) > NUMBER_LIMIT) return fault('value_out_of_range');
    return;
  }
  if (type === 'date') {
    switch (operator) {
      case 'is':
        if (typeof value !== 'string') return fault('value_wrong_type');
        if (!isIsoDate(value)) return fault('bad_date');
        return;
      case 'between':
        if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === 'string'))
          return fault('value_wrong_type');
        if (!value.every(isIsoDate)) return fault('bad_date');
        if ((value[0] as string) > (value[1] as string)) return fault('between_order');
        return;
      case 'day_is':
        if (!isFiniteNumber(value)) return fault('value_wrong_type');
        if (!isInt(value, 1, 31)) return fault('value_out_of_range');
        return;
      case 'month_is':
        if (!isFiniteNumber(value)) return fault('value_wrong_type');
        if (!isInt(value, 1, 12)) return fault('value_out_of_range');
        return;
      case 'year_is':
        if (!isFiniteNumber(value)) return fault('value_wrong_type');
        if (!isInt(value, 1900, 2200)) return fault('value_out_of_range');
        return;
      default:
        if (!isFiniteNumber(value)) return fault('value_wrong_type');
        if (!isInt(value, 0, FILTER_MAX_DAYS)) return fault('value_out_of_range');
        return;
    }
  }
  // choice
  if (operator === 'all') {
    if (value !== null && !(Array.isArray(value) && value.length === 0)) return fault('value_wrong_type');
    return;
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== ''))
    return fault('value_wrong_type');
  if (value.length > FILTER_MAX_CHOICES) return fault('value_out_of_range');
  if (value.some((v) => (v as string).length > FILTER_MAX_TEXT)) return fault('value_too_long');
  if (def.options && value.some((v) => !def.options!.includes(v as string))) return fault('unknown_choice');
  if (
    def.source === 'hotels' &&
    value.some((v) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v as string))
  )
    return fault('unknown_choice');
}

/**
 * Every fault of a filter document, in document order; empty when it can be counted. The server
 * refuses a document with faults ("Oops! Please double-check the filter logic arrangement."),
 * naming each path in the error's fields; the console marks the same paths before sending.
 */
export function checkFilter(doc: unknown): TFilterFault[] {
  const out: TFilterFault[] = [];
  const d = doc as { groups?: unknown };
  if (!d || !Array.isArray(d.groups) || d.groups.length === 0) {
    out.push({ path: 'groups', code: 'no_groups' });
    return out;
  }
  let conditions = 0;
  const walkGroup = (g: unknown, path: string, level: number) => {
    const group = g as { items?: unknown };
    if (level > FILTER_MAX_DEPTH) {
      out.push({ path, code: 'too_deep' });
      return;
    }
    if (!Array.isArray(group?.items) || group.items.length === 0) {
      out.push({ path: `${path}.items`, code: 'empty_group' });
      return;
    }
    group.items.forEach((item: unknown, i: number) => {
      const at = `${path}.items.${i}`;
      const it = item as { kind?: string; field?: string; operator?: string; value?: unknown };
      if (it?.kind === 'group') return walkGroup(item, at, level + 1);
      conditions += 1;
      if (conditions === FILTER_MAX_CONDITIONS + 1) out.push({ path: at, code: 'too_many_conditions' });
      const def = (FILTER_FIELDS as Record<string, TFieldDef>)[it?.field ?? ''];
      if (!def || !Object.hasOwn(FILTER_FIELDS, it.field!))
        return void out.push({ path: `${at}.field`, code: 'unknown_field' });
      if (!(OPERATORS as readonly string[]).includes(it.operator ?? ''))
        return void out.push({ path: `${at}.operator`, code: 'unknown_operator' });
      if (!(OPERATORS_BY_TYPE[def.type] as readonly string[]).includes(it.operator!)) {
        return void out.push({ path: `${at}.operator`, code: 'operator_not_for_field' });
      }
      checkValue(def.type, def, it.operator as TOperator, it.value ?? null, at, out);
    });
  };
  d.groups.forEach((g, i) => walkGroup(g, `groups.${i}`, 1));
  return out;
}

/**
 * Groups below the allowed depth are cut to an empty stand-in before parsing, so a document nested
 * thousands deep is refused as too deep (checkFilter's fault at level 4) instead of recursing.
 */
function pruneDeep(doc: unknown): unknown {
  const prune = (g: unknown, level: number): unknown => {
    if (!g || typeof g !== 'object' || Array.isArray(g)) return g;
    if (level > FILTER_MAX_DEPTH + 1) return { kind: 'group', join: 'and', items: [] };
    const items = (g as { items?: unknown }).items;
    if (!Array.isArray(items)) return g;
    return { ...g, items: items.map((i) => ((i as { kind?: unknown })?.kind === 'group' ? prune(i, level + 1) : i)) };
  };
  const groups = (doc as { groups?: unknown })?.groups;
  if (!Array.isArray(groups)) return doc;
  return { ...(doc as object), groups: groups.map((g) => prune(g, 1)) };
}

/** The document's shape alone: what a stored filter looks like in an answer. */
const ZFilterShape = z.strictObject({
  version: z.literal(FILTER_VERSION),
  join: z.enum(FILTER_JOINS),
  groups: z.array(ZFilterGroupShape).max(FILTER_MAX_CONDITIONS),
});
export const ZFilterDocument = ZFilterShape as unknown as z.ZodType<TFilter>;

/** The filter document as input, versioned. Parsing checks the shape; checkFilter() checks the meaning. */
export const ZFilter = z.preprocess(
  pruneDeep,
  ZFilterShape.superRefine((doc, ctx) => {
    for (const f of checkFilter(doc))
      ctx.addIssue({
        code: 'custom',
        message: f.code,
        path: f.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      });
  }),
) as unknown as z.ZodType<TFilter>;

/** The error code for any fault of a filter (spec section 5's message). */
export const FILTER_ERROR_CODE = 'filter_invalid';

// ---------------------------------------------------------------------------------------------
// Segments

export const SEGMENT_TYPES = ['dynamic', 'static'] as const;
export type TSegmentType = (typeof SEGMENT_TYPES)[number];
export const SEGMENT_NAME_MAX = 100;
export const SEGMENT_DESCRIPTION_MAX = 500;

const ZPerson = z.object({ id: z.string(), name: z.string() }).nullable();

export const ZSegment = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  type: z.enum(SEGMENT_TYPES),
  /** Dynamic: the filter. Static: the filter it was last frozen from, if any (for reference). */
  filter: ZFilterDocument.nullable(),
  /** Audience when last counted (on save, on a member change, on POST .../count), and when. */
  audience: z.number().nullable(),
  audienceCountedAt: z.string().nullable(),
  /** The owner host: its customers and bookings are the segment's scope. */
  hostId: z.string(),
  hostName: z.string(),
  hostLevel: z.enum(['brand', 'hotel_group', 'hotel']),
  /** True when the acting context owns the segment (only the owner edits it). */
  editable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: ZPerson,
  updatedBy: ZPerson,
});
export type TSegment = z.infer<typeof ZSegment>;

export const SEGMENT_SORTS = ['name', '-name', 'created_at', '-created_at', 'audience', '-audience'] as const;

export const ZSegmentListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  type: z.enum(SEGMENT_TYPES).optional(),
  /** The hotel filter (segmentation.filter_hotel): segments owned by this hotel. */
  hotelId: z.uuid().optional(),
  sort: z.enum(SEGMENT_SORTS).default('-created_at'),
  page: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const ZSegmentPage = z.object({
  items: z.array(ZSegment),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  /** The acting host's time zone (`hosts.timezone`): the console shows the list's times in it. */
  timeZone: z.string(),
});

export const ZSegmentInput = z.object({
  name: z.string().trim().min(1).max(SEGMENT_NAME_MAX),
  description: z.string().trim().max(SEGMENT_DESCRIPTION_MAX).default(''),
  type: z.enum(SEGMENT_TYPES),
  /** Required for dynamic segments; ignored (kept null) for static ones. */
  filter: ZFilter.nullable().optional(),
});
export type TSegmentInput = z.input<typeof ZSegmentInput>;
export const ZSegmentUpdate = ZSegmentInput.omit({ type: true });

export const list = defineEndpoint({
  method: 'GET',
  path: '/v1/segments',
  summary: 'Segments in reach (own and those of hosts below), searched, sorted, paged',
  query: ZSegmentListQuery,
  response: envelope(ZSegmentPage),
});
export const get = defineEndpoint({
  method: 'GET',
  path: '/v1/segments/:id',
  summary: 'One segment',
  response: envelope(ZSegment),
});
export const create = defineEndpoint({
  method: 'POST',
  path: '/v1/segments',
  summary:
    'Create a segment owned by the acting host (name unique within the host: 409; at the platform, which owns no brand data: 403 brand_host_required)',
  body: ZSegmentInput,
  response: envelope(ZSegment),
});
export const update = defineEndpoint({
  method: 'PUT',
  path: '/v1/segments/:id',
  summary: 'Edit name, description and (dynamic) filter',
  body: ZSegmentUpdate,
  response: envelope(ZSegment),
});
export const duplicate = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/:id/duplicate',
  summary:
    'Copy a segment (filter, or member list of a static one) into a new one of the acting host; the name defaults to "<name> (copy)" in `language` (else the user\'s language): "<name>（コピー）" in Japanese, numbered when taken ("<name> (copy 2)")',
  body: z.object({
    name: z.string().trim().min(1).max(SEGMENT_NAME_MAX).optional(),
    /** The console's language: a user may read it in another than their profile's. */
    language: z.enum(['ja', 'en']).optional(),
  }),
  response: envelope(ZSegment),
});
export const remove = defineEndpoint({
  method: 'DELETE',
  path: '/v1/segments/:id',
  summary:
    'Delete a segment; refused (409 segment_in_use) while a campaign that has not finished (scheduled, sending or paused) or a running scenario uses it',
  response: envelope(z.object({ id: z.string() })),
});

/** Something that uses a segment (written by campaigns and scenarios). */
export const SEGMENT_USE_KINDS = ['campaign', 'scenario'] as const;
export const ZSegmentUse = z.object({
  kind: z.enum(SEGMENT_USE_KINDS),
  id: z.string(),
  name: z.string(),
  /** The user's state word of that object (e.g. scheduled, running, draft). */
  state: z.string(),
  /** True when this use stops the segment from being deleted. */
  blocksDelete: z.boolean(),
});
export type TSegmentUse = z.infer<typeof ZSegmentUse>;
export const uses = defineEndpoint({
  method: 'GET',
  path: '/v1/segments/:id/uses',
  summary: 'Campaigns and scenarios that use the segment',
  response: envelope(z.array(ZSegmentUse)),
});

// ---------------------------------------------------------------------------------------------
// Counts

export const ZGroupCount = z.object({
  /** Its position among its parent's items (a top-level group: among the filter's groups). */
  index: z.number(),
  /** Where it is, dotted as a fault's path: `groups.0` (top level), `groups.0.items.2` (a subgroup). */
  path: z.string(),
  id: z.string().nullable(),
  count: z.number(),
});
export const ZFilterCount = z.object({
  /** The whole filter's audience. */
  total: z.number(),
  /**
   * Each group's own audience, at every level, in document order (a group before its subgroups),
   * with the console's id when it sent one. A static segment's recount has none.
   */
  groups: z.array(ZGroupCount),
  countedAt: z.string(),
});
export type TFilterCount = z.infer<typeof ZFilterCount>;

export const count = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/count',
  summary:
    "Live count of an unsaved filter in the acting host's scope: the whole filter and each group at every level, in one statement",
  body: z.object({ filter: ZFilter }),
  response: envelope(ZFilterCount),
});
export const recount = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/:id/count',
  summary:
    'Count a saved segment now and remember its audience (dynamic: per group at every level too; static: its members in scope)',
  response: envelope(ZFilterCount),
});

// ---------------------------------------------------------------------------------------------
// Members

export const ZMemberQuery = z.object({
  search: z.string().trim().max(200).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
/** The customer list's page shape: same columns, keyset pages, capped total, the host's zone. */
export const ZMemberPage = z.object({
  items: z.array(ZCustomer),
  nextCursor: z.string().nullable(),
  total: z.number(),
  totalCapped: z.boolean(),
  /** The acting host's time zone (`hosts.timezone`): the console shows the members' dates in it. */
  timeZone: z.string(),
});
export const members = defineEndpoint({
  method: 'GET',
  path: '/v1/segments/:id/members',
  summary:
    "Members now (dynamic: the filter evaluated now), newest customer first, keyset pages, with the acting host's time zone",
  query: ZMemberQuery,
  response: envelope(ZMemberPage),
});

export const ZMemberExport = z.object({ lang: z.enum(['ja', 'en']).optional() });
export const exportCsv = defineEndpoint({
  method: 'GET',
  path: '/v1/segments/:id/members.csv',
  summary:
    "The segment's members as CSV (UTF-8 with BOM; the customer export's columns and rules; needs customer.export_csv), bearer token",
  query: ZMemberExport,
  response: z.string(),
});
export const createExportLink = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/:id/export-downloads',
  summary:
    'A one-minute download link for the member CSV, bound to this user, role and browser (as the customer export)',
  body: ZMemberExport,
  response: envelope(z.object({ url: z.string(), expiresAt: z.string() })),
});
export const downloadExport = defineEndpoint({
  method: 'GET',
  path: '/v1/segments/export-downloads',
  summary: 'The member CSV through a link from POST /v1/segments/:id/export-downloads',
  query: z.object({ link: z.string().max(4000).default('') }),
  response: z.string(),
});

/** Customers named by id, or every customer a customer-list filter shows (the selection). */
export const ZMemberSelection = z
  .object({
    customerIds: z.array(z.uuid()).min(1).max(1000).optional(),
    selection: ZCustomerFilter.omit({ sort: true }).optional(),
  })
  .refine((v) => (v.customerIds ? 1 : 0) + (v.selection ? 1 : 0) === 1, {
    message: 'field_required',
    path: ['customerIds'],
  });

/** `total`: the segment's members now (those in its scope), also remembered as its audience. */
export const ZMembersAdded = z.object({ added: z.number(), alreadyIn: z.number(), total: z.number() });

export const addMembers = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/:id/members',
  summary: 'Add customers (ids, or a customer-list selection) to a static segment',
  body: ZMemberSelection,
  response: envelope(ZMembersAdded),
});
export const addToSegments = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/add-members',
  summary: 'The customer list\'s "add to segments": add one customer or a selection to several static segments',
  body: z.object({ segmentIds: z.array(z.uuid()).min(1).max(50) }).and(ZMemberSelection),
  response: envelope(z.object({ segments: z.array(ZMembersAdded.extend({ id: z.string() })) })),
});
export const removeMembers = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/:id/members/remove',
  summary: 'Remove customers from a static segment',
  body: z.object({ customerIds: z.array(z.uuid()).min(1).max(1000) }),
  response: envelope(z.object({ removed: z.number(), total: z.number() })),
});
export const freeze = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/:id/members/freeze',
  summary: 'Add a filter\'s current result (in the segment\'s scope) to a static segment: "from existing customers"',
  body: z.object({ filter: ZFilter }),
  response: envelope(ZMembersAdded),
});

/** Member files: one phone or email per row (first column; a header row is recognised). */
export const MEMBER_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const MEMBER_FILE_MAX_ROWS = 100000;
/** How many unmatched rows the report lists (the counts cover all). */
export const MEMBER_FILE_REPORT_ROWS = 1000;
export const MEMBER_FILE_REASONS = ['not_found', 'invalid', 'empty', 'duplicate'] as const;
export const ZMemberFileReport = z.object({
  rows: z.number(),
  matched: z.number(),
  unmatched: z.number(),
  added: z.number(),
  alreadyIn: z.number(),
  encoding: z.enum(['utf-8', 'cp932']),
  /** The first MEMBER_FILE_REPORT_ROWS unmatched rows: row number (header is row 1), value as read, why. */
  unmatchedRows: z.array(z.object({ row: z.number(), value: z.string(), reason: z.enum(MEMBER_FILE_REASONS) })),
});
export type TMemberFileReport = z.infer<typeof ZMemberFileReport>;
export const importMembers = defineEndpoint({
  method: 'POST',
  path: '/v1/segments/:id/members/import',
  summary:
    'Add customers to a static segment from a file of phones or emails (multipart field "file"; UTF-8 or CP932); a matched/unmatched report',
  response: envelope(ZMemberFileReport),
});

// ---------------------------------------------------------------------------------------------
// Why is this guest in?

export const ZExplainBooking = z.object({
  id: z.string(),
  hotelId: z.string(),
  hotelName: z.string(),
  bookingDate: z.string(),
  checkIn: z.string(),
  checkOut: z.string(),
  nights: z.number(),
  guests: z.number(),
  amount: z.number(),
  roomType: z.string().nullable(),
  source: z.string().nullable(),
  status: z.string(),
});
export type TExplainBooking = z.infer<typeof ZExplainBooking>;

export const ZExplainCondition = z.object({
  kind: z.literal('condition'),
  path: z.string(),
  field: z.string(),
  operator: z.string(),
  value: ZFilterValue,
  held: z.boolean(),
  /** The customer's or the shown booking's value of the field (dates as YYYY-MM-DD). */
  actual: z.union([z.string(), z.number(), z.null()]),
});
export interface TExplainGroup {
  kind: 'group';
  path: string;
  join: TFilterJoin;
  held: boolean;
  /** When the group has booking conditions: how many bookings matched them all, and one shown. */
  bookings: {
    quantifier: 'at_least' | 'none';
    count: number;
    matched: number;
    held: boolean;
    /** A matching booking, or when none matches the booking that came closest; null without bookings. */
    booking: TExplainBooking | null;
  } | null;
  items: (z.infer<typeof ZExplainCondition> | TExplainGroup)[];
}
const ZExplainGroup: z.ZodType<TExplainGroup> = z
  .lazy(() =>
    z.object({
      kind: z.literal('group'),
      path: z.string(),
      join: z.enum(FILTER_JOINS),
      held: z.boolean(),
      bookings: z
        .object({
          quantifier: z.enum(BOOKING_QUANTIFIERS),
          count: z.number(),
          matched: z.number(),
          held: z.boolean(),
          booking: ZExplainBooking.nullable(),
        })
        .nullable(),
      items: z.array(z.union([ZExplainCondition, ZExplainGroup])),
    }),
  )
  .meta({ id: 'SegmentExplainGroup' });
export const ZExplanation = z.object({
  segmentId: z.string(),
  customerId: z.string(),
  type: z.enum(SEGMENT_TYPES),
  in: z.boolean(),
  /** False when the customer is outside the segment's host scope (then nothing else matters). */
  inScope: z.boolean(),
  /** Static segments: whether the customer is on the member list. */
  listed: z.boolean().nullable(),
  /** Dynamic segments: the document's join and each top-level group explained. */
  join: z.enum(FILTER_JOINS).nullable(),
  groups: z.array(ZExplainGroup),
});
export type TExplanation = z.infer<typeof ZExplanation>;

export const explain = defineEndpoint({
  method: 'GET',
  path: '/v1/segments/:id/explain/:customerId',
  summary: 'Why is this guest in (or out): each condition held or failed, and the booking that matched',
  response: envelope(ZExplanation),
});

// ---------------------------------------------------------------------------------------------
// A customer's segments (customer detail)

export const ZCustomerSegment = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(SEGMENT_TYPES),
  hostName: z.string(),
});
export const customerSegments = defineEndpoint({
  method: 'GET',
  path: '/v1/customers/:id/segments',
  summary: 'The segments in reach that the customer is in now (static: listed; dynamic: the filter holds)',
  response: envelope(z.array(ZCustomerSegment)),
});

// ---------------------------------------------------------------------------------------------
// Value pickers

export const FIELD_VALUE_SOURCES = ['hotels', 'room_types', 'booking_sources'] as const;
export const fieldValues = defineEndpoint({
  method: 'GET',
  path: '/v1/segments/field-values',
  summary:
    "Values for a choice field: the acting host's hotels, or room types / booking sources seen in its bookings; for anyone who can read segments (a filter summary names its hotels)",
  query: z.object({ source: z.enum(FIELD_VALUE_SOURCES) }),
  response: envelope(z.array(z.object({ value: z.string(), label: z.string() }))),
});

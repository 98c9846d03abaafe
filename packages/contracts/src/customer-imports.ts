import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';

/**
 * Customer CSV import (specification section 2: upload, review, email reception). The upload
 * is multipart; review and import run as background jobs that the console polls.
 */

/** Files at or above this size are refused before they are read (1M customers fit well below). */
export const IMPORT_MAX_BYTES = 150 * 1024 * 1024;
export const IMPORT_MAX_MEGABYTES = 150;

/** The customer fields a file may carry, in the order the export writes them. */
export const IMPORT_FIELDS = [
  'lastName',
  'firstName',
  'phone',
  'email',
  'idNumber',
  'gender',
  'dateOfBirth',
  'country',
  'prefecture',
  'city',
  'address',
  'emailStatus',
] as const;
export type TImportField = (typeof IMPORT_FIELDS)[number];
/** A file must have these columns (a full-name column may stand for the two name columns). */
export const IMPORT_REQUIRED_FIELDS = ['lastName', 'firstName', 'phone', 'address'] as const;

export const IMPORT_STATUSES = [
  'reviewing',
  'reviewed',
  'rejected',
  'queued',
  'importing',
  'completed',
  'failed',
  'cancelled',
] as const;
export type TImportStatus = (typeof IMPORT_STATUSES)[number];

/**
 * Step three, email reception: how the new customers agreed to receive email, or that they did
 * not (they are then added as unsubscribed). Existing customers keep their own consent.
 */
export const EMAIL_RECEPTIONS = ['booking', 'web_form', 'in_person', 'not_given'] as const;
export type TEmailReception = (typeof EMAIL_RECEPTIONS)[number];

export const ZColumnMapping = z.object({
  /** 1-based column position in the file. */
  column: z.number(),
  header: z.string(),
  /** The customer field this column fills, null when it is ignored. */
  field: z.enum([...IMPORT_FIELDS, 'fullName']).nullable(),
});

export const ZImportCounts = z.object({
  total: z.number(),
  new: z.number(),
  updated: z.number(),
  /** Rows equal to an existing customer: nothing to change. */
  unchanged: z.number(),
  /** Rows repeating an earlier row of the same file exactly. */
  duplicates: z.number(),
  failed: z.number(),
});
export type TImportCounts = z.infer<typeof ZImportCounts>;

export const ZCustomerImport = z.object({
  id: z.string(),
  status: z.enum(IMPORT_STATUSES),
  fileName: z.string(),
  fileSize: z.number(),
  encoding: z.enum(['utf-8', 'cp932']),
  hotelId: z.string().nullable(),
  hotelName: z.string().nullable(),
  columns: z.array(ZColumnMapping),
  /** Rows read so far (review) or written so far (import), of `counts.total` when known. */
  progress: z.object({ done: z.number(), total: z.number().nullable() }),
  /** What the review found (set once reviewed). */
  counts: ZImportCounts.nullable(),
  /** What the import did (set once completed). */
  result: z
    .object({ inserted: z.number(), updated: z.number(), unchanged: z.number(), allocated: z.number() })
    .nullable(),
  emailReception: z.enum(EMAIL_RECEPTIONS).nullable(),
  /** The static segment chosen in step three (segmentation), and how many customers joined it once completed. */
  segmentId: z.string().nullable().optional(),
  segmentAdded: z.number().nullable().optional(),
  /** Why the file was rejected or the import failed: an error code, and the row when it has one. */
  error: z.object({ code: z.string(), message: z.string(), row: z.number().nullable() }).nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** When the worker running it stopped and another took it up again, from the start (nothing was half-written). */
  resumedAt: z.string().nullable(),
  /**
   * True when the acting host oversees the host that made the import (a brand or hotel group
   * opening a hotel's import): it may read the import and its rows, not run or cancel it.
   */
  readOnly: z.boolean().optional(),
});
export type TCustomerImport = z.infer<typeof ZCustomerImport>;

export const ZImportProblem = z.object({ field: z.string(), code: z.string(), message: z.string() });
export const ZImportRow = z.object({
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: z.number(),
  outcome: z.enum(['failed', 'duplicate', 'unchanged']),
  problems: z.array(ZImportProblem),
  /** For a repeated row: the earlier row it repeats. */
  duplicateOf: z.number().nullable(),
  lastName: z.string().nullable(),
  firstName: z.string().nullable(),
  phone: z.string().nullable(),
});
export type TImportRow = z.infer<typeof ZImportRow>;

export const ZImportRowsQuery = z.object({
  outcome: z.enum(['failed', 'identical']),
  /** Rows after this row number. */
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const upload = defineEndpoint({
  method: 'POST',
  path: '/v1/customer-imports',
  summary: 'Upload a customer CSV (multipart field "file"; UTF-8 or Shift_JIS/CP932); its review starts at once',
  query: z.object({ hotelId: z.uuid().optional() }),
  response: envelope(ZCustomerImport),
});
export const get = defineEndpoint({
  method: 'GET',
  path: '/v1/customer-imports/:id',
  summary:
    'An import: status, progress, column mapping, review counts, result. The host that made it, and the brand or hotel group above that host, may read it',
  response: envelope(ZCustomerImport),
});
export const rows = defineEndpoint({
  method: 'GET',
  path: '/v1/customer-imports/:id/rows',
  summary: 'Failed or identical rows of a reviewed import, by row number',
  query: ZImportRowsQuery,
  response: envelope(z.object({ items: z.array(ZImportRow), nextAfter: z.number().nullable() })),
});
export const failuresCsv = defineEndpoint({
  method: 'GET',
  path: '/v1/customer-imports/:id/failures.csv',
  summary: 'The failed rows with their reasons, as CSV (UTF-8 with BOM)',
  query: z.object({ lang: z.enum(['ja', 'en']).optional() }),
  response: z.string(),
});
export const sampleCsv = defineEndpoint({
  method: 'GET',
  path: '/v1/customer-imports/sample.csv',
  summary:
    'A file to start from: every column an import reads, headed as the export heads it, and one example customer (UTF-8 with BOM)',
  query: z.object({ lang: z.enum(['ja', 'en']).optional() }),
  response: z.string(),
});
export const confirm = defineEndpoint({
  method: 'POST',
  path: '/v1/customer-imports/:id/confirm',
  summary: 'Run a reviewed import with the chosen email reception; all rows or none are written',
  body: z.object({
    emailReception: z.enum(EMAIL_RECEPTIONS),
    /** Step three's segment choice: a static segment of the acting host that the imported customers join. */
    segmentId: z.uuid().optional(),
  }),
  response: envelope(ZCustomerImport),
});
export const cancel = defineEndpoint({
  method: 'DELETE',
  path: '/v1/customer-imports/:id',
  summary: 'Drop a reviewed import without writing anything',
  response: envelope(ZCustomerImport),
});

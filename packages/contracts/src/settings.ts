import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';
import { ZHost, ZHostInput } from './management.ts';
import { HOST_LEVELS } from './tenancy.ts';

/** Settings of the acting host's own information (brand, hotel group or hotel, with logo). */
export const getHostInfo = defineEndpoint({
  method: 'GET',
  path: '/v1/settings/host',
  summary: "The acting host's information",
  response: envelope(ZHost),
});
export const updateHostInfo = defineEndpoint({
  method: 'PUT',
  path: '/v1/settings/host',
  summary: "Update the acting host's name, address, contact and logo",
  body: ZHostInput,
  response: envelope(ZHost),
});

/**
 * One line of the audit log. `changes` is what the operation recorded: `{ field: [before, after] }`
 * for updates, the chosen role for invitations, the names of personal fields (never their values)
 * for people. Names are resolved when the log is read: `targetName` (a host's name, a user's full
 * name; null for customers) and `hostNames` (every host id mentioned in `changes`).
 */
export const ZAuditEntry = z.object({
  id: z.number(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  actingHostName: z.string().nullable(),
  actingHostLevel: z.enum(HOST_LEVELS).nullable(),
  actingRole: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetName: z.string().nullable(),
  changes: z.unknown(),
  hostNames: z.record(z.string(), z.string()),
  /** Current names of the campaigns, templates, segments, scenarios, presets and guests `changes` mentions by id. */
  objectNames: z.record(z.string(), z.string()),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;
export const AUDIT_PAGE_SIZE = 50;
export const auditLog = defineEndpoint({
  method: 'GET',
  path: '/v1/audit',
  summary:
    'The audit log of a host and everything below it, newest first (granduser); `before` is the last id of the previous page',
  query: z.object({
    hostId: z.uuid().optional(),
    before: z.coerce.number().int().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(AUDIT_PAGE_SIZE),
  }),
  response: envelope(z.array(ZAuditEntry)),
});

import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';
import { ZHost, ZHostInput } from './management.ts';

/** Settings of the acting host's own information (brand, hotel group or hotel, with logo). */
export const getHostInfo = defineEndpoint({ method: 'GET', path: '/v1/settings/host', summary: "The acting host's information", response: envelope(ZHost) });
export const updateHostInfo = defineEndpoint({
  method: 'PUT',
  path: '/v1/settings/host',
  summary: "Update the acting host's name, address, contact and logo",
  body: ZHostInput,
  response: envelope(ZHost),
});

export const ZAuditEntry = z.object({
  id: z.number(),
  at: z.string(),
  actorEmail: z.string().nullable(),
  actingHostName: z.string().nullable(),
  actingRole: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  changes: z.unknown(),
});
export const auditLog = defineEndpoint({
  method: 'GET',
  path: '/v1/audit',
  summary: 'The audit log of a host and everything below it (granduser)',
  query: z.object({
    hostId: z.uuid().optional(),
    before: z.coerce.number().int().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  response: envelope(z.array(ZAuditEntry)),
});

import { z } from 'zod';
import { defineEndpoint, envelope } from './http.ts';

export const ZOutboxMessage = z.object({
  id: z.string(),
  receivedAt: z.string(),
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  /** Header lines in order, as received (DKIM-Signature, Authentication-Results, ...). */
  headers: z.array(z.object({ key: z.string(), value: z.string() })),
});
export type TOutboxMessage = z.infer<typeof ZOutboxMessage>;

export const outbox = defineEndpoint({
  method: 'GET',
  path: '/v1/dev/outbox',
  summary: 'Mail the embedded SMTP sink received, newest first (embedded mode, granduser only)',
  query: z.object({
    to: z.string().max(254).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  response: envelope(z.array(ZOutboxMessage)),
});

export const outboxRaw = defineEndpoint({
  method: 'GET',
  path: '/v1/dev/outbox/:id/raw',
  summary: 'One message of the embedded sink exactly as received, as message/rfc822 (embedded mode, granduser only)',
  response: z.string(),
});

/** A record set of the embedded DNS server: every value of one type at one name. */
export const ZDevDnsRecordSet = z.object({
  name: z.string().trim().min(1).max(253),
  type: z.enum(['TXT', 'CNAME']),
  /** TXT values longer than 255 characters are served split into 255-character strings. Empty: remove the set. */
  values: z.array(z.string().max(4000)).max(20),
});
export type TDevDnsRecordSet = z.infer<typeof ZDevDnsRecordSet>;

export const dnsRecords = defineEndpoint({
  method: 'GET',
  path: '/v1/dev/dns',
  summary: 'What the embedded DNS server serves (embedded mode, granduser only)',
  response: envelope(z.array(ZDevDnsRecordSet)),
});
export const publishDns = defineEndpoint({
  method: 'PUT',
  path: '/v1/dev/dns',
  summary:
    "Publish, change or (with no values) remove a record set on the embedded DNS server, playing the hotel's DNS administrator",
  body: ZDevDnsRecordSet,
  response: envelope(ZDevDnsRecordSet),
});

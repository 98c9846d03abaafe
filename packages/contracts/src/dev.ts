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

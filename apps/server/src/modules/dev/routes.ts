import { devApi } from '@yado/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { devOutbox } from '../../db/schema.ts';
import { rawRoute, route } from '../../http/route.ts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { qualified } from '../../db/qualified.ts';
import { listZone, publishRecordSet } from '../../dns/embedded-dns.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Developer aids that exist only while mail goes to the embedded sink. */
export function devRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, devApi.outbox, 'embedded-granduser', async ({ query }) => {
    const to = query.to?.trim().toLowerCase();
    const rows = await rt.database.db
      .select({
        id: devOutbox.id,
        receivedAt: devOutbox.receivedAt,
        mailFrom: devOutbox.mailFrom,
        rcptTo: devOutbox.rcptTo,
        subject: devOutbox.subject,
        raw: devOutbox.raw,
        headers: devOutbox.headers,
      })
      .from(devOutbox)
      .where(
        to ? sql`exists (select 1 from unnest(${qualified(devOutbox.rcptTo)}) r where lower(r) = ${to})` : undefined,
      )
      .orderBy(desc(devOutbox.receivedAt))
      .limit(query.limit);
    // The sink stores messages as received; their bodies are decoded here, for the few read.
    return Promise.all(
      rows.map(async (r) => {
        // PGlite answers bytea as a Uint8Array, which mailparser would take for a stream.
        const parsed = r.raw ? await simpleParser(Buffer.from(r.raw.buffer, r.raw.byteOffset, r.raw.byteLength)) : null;
        return {
          id: r.id,
          receivedAt: r.receivedAt.toISOString(),
          from: r.mailFrom,
          to: r.rcptTo,
          subject: r.subject,
          text: parsed?.text ?? '',
          html: typeof parsed?.html === 'string' ? parsed.html : null,
          headers: r.headers,
        };
      }),
    );
  });
  // The message as received, so any mail tool (mailauth, a mail client) can check it.
  rawRoute(app, devApi.outboxRaw, 'embedded-granduser', async ({ params, reply }) => {
    const id = params.id ?? '';
    const [row] = UUID.test(id)
      ? await rt.database.db
          .select({ raw: devOutbox.raw })
          .from(devOutbox)
          .where(and(eq(devOutbox.id, id)))
      : [];
    if (!row?.raw) throw new AppError(404, 'not_found');
    return reply.type('message/rfc822').header('content-disposition', `inline; filename="${id}.eml"`).send(row.raw);
  });
  route(app, devApi.dnsRecords, 'embedded-granduser', async () => listZone(rt.database.db));
  route(app, devApi.publishDns, 'embedded-granduser', async ({ body }) => publishRecordSet(rt.database.db, body));
}

import { devApi } from '@yado/contracts';
import { desc, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { devOutbox } from '../../db/schema.ts';
import { route } from '../../http/route.ts';
import type { TRuntime } from '../../runtime.ts';
import { qualified } from '../../db/qualified.ts';

/** Developer aids that exist only while mail goes to the embedded sink. */
export function devRoutes(app: FastifyInstance, rt: TRuntime): void {
  route(app, devApi.outbox, 'embedded-granduser', async ({ query }) => {
    const to = query.to?.trim().toLowerCase();
    const rows = await rt.database.db
      .select()
      .from(devOutbox)
      .where(to ? sql`exists (select 1 from unnest(${qualified(devOutbox.rcptTo)}) r where lower(r) = ${to})` : undefined)
      .orderBy(desc(devOutbox.receivedAt))
      .limit(query.limit);
    return rows.map((r) => ({
      id: r.id,
      receivedAt: r.receivedAt.toISOString(),
      from: r.mailFrom,
      to: r.rcptTo,
      subject: r.subject,
      text: r.text,
      html: r.html,
    }));
  });
}

import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { TRuntime } from '../../runtime.ts';
import { rowsOf } from '../../db/client.ts';
import { importFilePath } from './review-import.ts';

/** An import nobody ran within this many days is dropped, with its rows and file. */
export const ABANDONED_AFTER_DAYS = 7;
/** The failed and repeated rows of a finished import stay this long for the failures download. */
export const KEEP_FAILURES_DAYS = 30;

/** Housekeeping, daily: imports left half-way and the leftovers of finished ones. */
export async function pruneImports(rt: TRuntime): Promise<{ dropped: number }> {
  const db = rt.database.db;
  const dropped = rowsOf<{ id: string }>(
    await db.execute(sql`update customer_imports set status = 'cancelled', finished_at = now()
      where status in ('reviewing', 'reviewed', 'rejected', 'failed') and created_at < now() - make_interval(days => ${ABANDONED_AFTER_DAYS})
      returning id`),
  );
  for (const { id } of dropped) await rm(importFilePath(rt.config.dataDir, id), { force: true });
  await db.execute(sql`delete from customer_import_rows r using customer_imports i
    where r.import_id = i.id and r.brand_id = i.brand_id and (
      i.status = 'cancelled'
      or (i.status = 'completed' and i.finished_at < now() - make_interval(days => ${KEEP_FAILURES_DAYS})))`);
  return { dropped: dropped.length };
}

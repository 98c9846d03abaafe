import { sql } from 'drizzle-orm';
import type { TTx } from '../../db/client.ts';

/**
 * The registry of what uses a segment. Campaigns and scenarios call these in the transaction that
 * changes them (scheduled, running, finished, deleted), so deleting a segment can be refused with
 * their names while segmentation knows nothing else about them.
 */

export interface TSegmentUseInput {
  segmentId: string;
  brandId: string;
  kind: 'campaign' | 'scenario';
  objectId: string;
  name: string;
  /** The object's state as its own module words it (scheduled, running, draft...). */
  state: string;
  /** Whether the segment may not be deleted while this use stands (a campaign scheduled, sending or paused; a running scenario). */
  blocksDelete: boolean;
}

/** Records or refreshes one use. */
export async function recordSegmentUse(tx: TTx, use: TSegmentUseInput): Promise<void> {
  await tx.execute(sql`insert into segment_uses (segment_id, brand_id, kind, object_id, name, state, blocks_delete)
    values (${use.segmentId}::uuid, ${use.brandId}::uuid, ${use.kind}, ${use.objectId}::uuid, ${use.name}, ${use.state}, ${use.blocksDelete})
    on conflict (segment_id, kind, object_id) do update set name = excluded.name, state = excluded.state, blocks_delete = excluded.blocks_delete, updated_at = now()`);
}

/** Forgets every use by one object (its segments changed, or it was deleted), or only of the segments not in `keep`. */
export async function releaseSegmentUses(
  tx: TTx,
  kind: 'campaign' | 'scenario',
  objectId: string,
  keep: string[] = [],
): Promise<void> {
  await tx.execute(
    sql`delete from segment_uses where kind = ${kind} and object_id = ${objectId}::uuid and not (segment_id = any(${sql.param(keep)}::uuid[]))`,
  );
}

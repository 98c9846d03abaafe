import { sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { recordSegmentUse, releaseSegmentUses } from '../segments/segment-uses.ts';
import { recordTemplateUse } from '../templates/queries.ts';

/**
 * The marks a campaign leaves on its segments and template: while it is scheduled or sending they
 * cannot be deleted; once it is sent, cancelled or deleted they can. The template keeps a row for
 * its report (the campaign's state), the segment none.
 */
export async function holdUses(tx: TTx, campaignId: string, state: 'scheduled' | 'pending'): Promise<void> {
  const [c] = await selectRows<{ brand_id: string; name: string; template_id: string | null }>(
    tx,
    sql`select brand_id, name, template_id from campaigns where id = ${campaignId}::uuid`,
  );
  if (!c) return;
  const segments = await selectRows<{ segment_id: string }>(
    tx,
    sql`select segment_id from campaign_segments where campaign_id = ${campaignId}::uuid`,
  );
  await releaseSegmentUses(
    tx,
    'campaign',
    campaignId,
    segments.map((s) => s.segment_id),
  );
  for (const s of segments)
    await recordSegmentUse(tx, {
      segmentId: s.segment_id,
      brandId: c.brand_id,
      kind: 'campaign',
      objectId: campaignId,
      name: c.name,
      state,
      blocksDelete: true,
    });
  await tx.execute(
    sql`delete from template_uses where campaign_id = ${campaignId}::uuid and template_id is distinct from ${c.template_id}::uuid`,
  );
  // A use by a sending campaign is written as scheduled: the template module refuses deletion on that state.
  if (c.template_id)
    await recordTemplateUse(tx, {
      templateId: c.template_id,
      campaignId,
      brandId: c.brand_id,
      campaignName: c.name,
      status: 'scheduled',
    });
}

/** After the campaign is sent, cancelled or back in draft: nothing blocks deletion any more. */
export async function releaseUses(
  tx: TTx,
  campaignId: string,
  state: 'sent' | 'cancelled' | 'draft' | 'failed' | 'deleted',
): Promise<void> {
  await releaseSegmentUses(tx, 'campaign', campaignId);
  if (state === 'deleted' || state === 'draft')
    await tx.execute(sql`delete from template_uses where campaign_id = ${campaignId}::uuid`);
  else
    await tx.execute(
      sql`update template_uses set status = ${state}, updated_at = now() where campaign_id = ${campaignId}::uuid`,
    );
}

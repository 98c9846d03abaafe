import type { TTx } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

export interface TAuditEvent {
  action:
    | 'create'
    | 'update'
    | 'delete'
    | 'duplicate'
    | 'status_change'
    | 'invite'
    | 'remove_role'
    | 'add_to_group'
    | 'remove_from_group'
    | 'email_status_change'
    | 'connect'
    | 'disconnect'
    | 'verify'
    | 'schedule'
    | 'send_now'
    | 'unschedule'
    | 'cancel'
    // A sending campaign paused (and, with 'resume', resumed).
    | 'pause'
    // Scenario actions of section 4 (run, stop, ...), a copy, and the first delete that archives.
    | 'run'
    | 'stop'
    | 'restart'
    | 'resume'
    | 'restore'
    | 'copy'
    | 'archive'
    // A suppression lifted by an admin (issue 25).
    | 'lift'
    // An A/B test's winner picked by hand, or decided by the server at the end of the wait (issue 26).
    | 'pick_winner'
    | 'decide_winner';
  targetType:
    | 'brand'
    | 'hotel_group'
    | 'hotel'
    | 'user'
    | 'customer'
    | 'booking_connection'
    | 'sending_domain'
    | 'campaign_email_settings'
    | 'segment'
    | 'tracking_settings'
    | 'relay_webhook'
    | 'campaign'
    | 'template'
    | 'scenario'
    | 'preset'
    | 'suppression';
  targetId: string;
  /** The brand the target belongs to; the audit log is readable per brand. */
  brandId: string | null;
  changes?: Record<string, unknown>;
}

/** Writes who did what, as whom, to what, in the same transaction as the change itself. */
export async function recordAudit(tx: TTx, ctx: TActingContext, event: TAuditEvent): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: ctx.user.id,
    actingHostId: ctx.host.id,
    actingRole: ctx.role,
    brandId: event.brandId,
    action: event.action,
    targetType: event.targetType,
    targetId: event.targetId,
    changes: event.changes ?? null,
  });
}

/** The fields whose values differ, as { field: [before, after] }. */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of Object.keys(after)) {
    if (after[key] !== undefined && before[key] !== after[key]) changes[key] = [before[key] ?? null, after[key]];
  }
  return changes;
}

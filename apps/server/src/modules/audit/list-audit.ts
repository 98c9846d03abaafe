import type { TAuditEntry } from '@yado/contracts/settings';
import { fullName } from '@yado/contracts';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TTx } from '../../db/client.ts';
import {
  auditLog,
  campaigns,
  customers,
  hosts,
  scenarioPresets,
  scenarios,
  segments,
  templates,
  users,
} from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

const HOST_TYPES = ['brand', 'hotel_group', 'hotel'];
/** The keys of `changes` whose values are host ids (or lists of them); `hotelId`: a customer import's hotel. */
const HOST_ID_KEYS = ['hotelGroupId', 'hotelId', 'deletedHostIds', 'releasedHotelIds'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The objects an entry can be about or mention, other than hosts and users, named when read. */
type TObjectType = 'campaign' | 'template' | 'segment' | 'scenario' | 'preset' | 'customer';
const OBJECT_TYPES: readonly string[] = ['campaign', 'template', 'segment', 'scenario', 'preset', 'customer'];
/** The keys of `changes` whose values are ids of such objects (or lists or [before, after] pairs of them). */
const OBJECT_ID_KEYS: Record<string, TObjectType> = {
  campaignId: 'campaign',
  templateId: 'template',
  segmentId: 'segment',
  segmentIds: 'segment',
  excludeSegmentIds: 'segment',
  scenarioId: 'scenario',
  presetId: 'preset',
  customerId: 'customer',
};

const uuidsIn = (value: unknown): string[] =>
  (Array.isArray(value) ? value.flat() : [value]).filter((v): v is string => typeof v === 'string' && UUID.test(v));

function objectIdsIn(changes: unknown): [TObjectType, string][] {
  if (!changes || typeof changes !== 'object') return [];
  return Object.entries(OBJECT_ID_KEYS).flatMap(([key, type]) =>
    uuidsIn((changes as Record<string, unknown>)[key]).map((id): [TObjectType, string] => [type, id]),
  );
}

/** The current names of campaigns, templates, segments, scenarios, presets and customers (guests), by id. */
async function objectNames(tx: TTx, wanted: Map<TObjectType, Set<string>>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const ids = (type: TObjectType) => [...(wanted.get(type) ?? [])];
  const named = {
    campaign: campaigns,
    template: templates,
    segment: segments,
    scenario: scenarios,
    preset: scenarioPresets,
  };
  for (const [type, table] of Object.entries(named) as [TObjectType, typeof campaigns][]) {
    if (ids(type).length === 0) continue;
    for (const row of await tx
      .select({ id: table.id, name: table.name })
      .from(table)
      .where(inArray(table.id, ids(type))))
      names.set(row.id, row.name);
  }
  if (ids('customer').length > 0) {
    for (const row of await tx
      .select({ id: customers.id, firstName: customers.firstName, lastName: customers.lastName })
      .from(customers)
      .where(inArray(customers.id, ids('customer'))))
      names.set(row.id, fullName(row.firstName, row.lastName));
  }
  return names;
}

function hostIdsIn(changes: unknown): string[] {
  if (!changes || typeof changes !== 'object') return [];
  const values = HOST_ID_KEYS.flatMap((key) => {
    const value = (changes as Record<string, unknown>)[key];
    return Array.isArray(value) ? value : [value];
  });
  return values.filter((v): v is string => typeof v === 'string' && UUID.test(v));
}

/**
 * A page of the audit log, newest first: everything (no host), a brand and all below it, or what
 * a hotel group or hotel did or had done to it. Names are looked up now, deleted hosts included,
 * so the log itself stores ids only: of hosts and users, and of the campaigns, templates,
 * segments, scenarios, presets and guests an entry is about or mentions (a guest's unsubscribe
 * names the guest and the campaign it came from). What was deleted since keeps the name recorded
 * with the entry, if any.
 */
export async function listAudit(
  tx: TTx,
  query: { hostId?: string; before?: number; limit: number },
): Promise<TAuditEntry[]> {
  let scope = sql`true`;
  if (query.hostId) {
    const [host] = await tx.select({ id: hosts.id, level: hosts.level }).from(hosts).where(eq(hosts.id, query.hostId));
    if (!host) throw new AppError(404, 'not_found');
    scope =
      host.level === 'brand'
        ? sql`${auditLog.brandId} = ${host.id}`
        : (or(eq(auditLog.targetId, host.id), eq(auditLog.actingHostId, host.id)) as typeof scope);
  }
  const actingHost = alias(hosts, 'acting_host');
  const actor = alias(users, 'actor');
  const rows = await tx
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorEmail: actor.email,
      actingHostName: actingHost.name,
      actingHostLevel: actingHost.level,
      actingRole: auditLog.actingRole,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      changes: auditLog.changes,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
    .leftJoin(actingHost, eq(actingHost.id, auditLog.actingHostId))
    // Newest first by when it happened (an entry recorded later may be of an earlier moment: the
    // demo history's past unsubscribes, a report's own time), the id breaking ties; the next page
    // starts after the previous page's last entry in that order.
    .where(
      and(
        scope,
        query.before
          ? sql`(${auditLog.at}, ${auditLog.id}) < (select b.at, b.id from audit_log b where b.id = ${query.before})`
          : undefined,
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(query.limit);

  const hostIds = new Set<string>();
  const userIds = new Set<string>();
  const objectIds = new Map<TObjectType, Set<string>>();
  const wantObject = (type: TObjectType, id: string) => objectIds.set(type, (objectIds.get(type) ?? new Set()).add(id));
  for (const r of rows) {
    for (const id of hostIdsIn(r.changes)) hostIds.add(id);
    for (const [type, id] of objectIdsIn(r.changes)) wantObject(type, id);
    if (r.targetId && UUID.test(r.targetId) && OBJECT_TYPES.includes(r.targetType))
      wantObject(r.targetType as TObjectType, r.targetId);
    if (r.targetId && UUID.test(r.targetId) && HOST_TYPES.includes(r.targetType)) hostIds.add(r.targetId);
    if (r.targetId && UUID.test(r.targetId) && r.targetType === 'user') userIds.add(r.targetId);
  }
  const hostNames = new Map<string, string>();
  if (hostIds.size > 0) {
    for (const h of await tx
      .select({ id: hosts.id, name: hosts.name })
      .from(hosts)
      .where(inArray(hosts.id, [...hostIds])))
      hostNames.set(h.id, h.name);
  }
  const userNames = new Map<string, string>();
  if (userIds.size > 0) {
    const found = await tx
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(inArray(users.id, [...userIds]));
    for (const u of found) userNames.set(u.id, fullName(u.firstName, u.lastName));
  }
  const names = await objectNames(tx, objectIds);

  return rows.map((r) => {
    const targetName = !r.targetId
      ? null
      : r.targetType === 'user'
        ? (userNames.get(r.targetId) ?? null)
        : OBJECT_TYPES.includes(r.targetType)
          ? (names.get(r.targetId) ?? null)
          : (hostNames.get(r.targetId) ?? null);
    const mentioned = Object.fromEntries(
      hostIdsIn(r.changes).flatMap((id) => (hostNames.has(id) ? [[id, hostNames.get(id) as string]] : [])),
    );
    const mentionedObjects = Object.fromEntries(
      objectIdsIn(r.changes).flatMap(([, id]) => (names.has(id) ? [[id, names.get(id) as string]] : [])),
    );
    return { ...r, at: r.at.toISOString(), targetName, hostNames: mentioned, objectNames: mentionedObjects };
  });
}

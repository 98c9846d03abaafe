import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { campaignEmailSettings, hosts, sendingDomains } from '../../db/schema.ts';

export type TDomainRow = typeof sendingDomains.$inferSelect;
export type TSettingsRow = typeof campaignEmailSettings.$inferSelect;

export async function listDomainRows(tx: TTx, brandId: string): Promise<TDomainRow[]> {
  return tx
    .select()
    .from(sendingDomains)
    .where(eq(sendingDomains.brandId, brandId))
    .orderBy(asc(sendingDomains.createdAt));
}

export async function findDomainRow(tx: TTx, brandId: string, id: string): Promise<TDomainRow | null> {
  const [row] = await tx
    .select()
    .from(sendingDomains)
    .where(and(eq(sendingDomains.brandId, brandId), eq(sendingDomains.id, id)));
  return row ?? null;
}

export async function findDomainByName(tx: TTx, brandId: string, domain: string): Promise<TDomainRow | null> {
  const [row] = await tx
    .select()
    .from(sendingDomains)
    .where(and(eq(sendingDomains.brandId, brandId), eq(sendingDomains.domain, domain)));
  return row ?? null;
}

export async function insertDomainRow(tx: TTx, values: typeof sendingDomains.$inferInsert): Promise<TDomainRow> {
  const [row] = await tx.insert(sendingDomains).values(values).returning();
  return row as TDomainRow;
}

export async function saveCheck(
  tx: TTx,
  id: string,
  values: Pick<TDomainRow, 'state' | 'checks' | 'lastCheckedAt' | 'verifiedAt' | 'lapsedAt'> & {
    verifyAvailableAt?: Date;
  },
): Promise<TDomainRow> {
  const [row] = await tx.update(sendingDomains).set(values).where(eq(sendingDomains.id, id)).returning();
  return row as TDomainRow;
}

export async function deleteDomainRow(tx: TTx, brandId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(sendingDomains)
    .where(and(eq(sendingDomains.brandId, brandId), eq(sendingDomains.id, id)))
    .returning({ id: sendingDomains.id });
  return rows.length > 0;
}

/** Domains the daily re-check reads (across brands): every one tried at least once. */
export async function domainsToRecheck(tx: TTx): Promise<TDomainRow[]> {
  return tx
    .select()
    .from(sendingDomains)
    .where(ne(sendingDomains.state, 'unverified'))
    .orderBy(asc(sendingDomains.createdAt));
}

export async function findSettingsRows(tx: TTx, hostIds: string[]): Promise<TSettingsRow[]> {
  if (hostIds.length === 0) return [];
  return tx.select().from(campaignEmailSettings).where(inArray(campaignEmailSettings.hostId, hostIds));
}

export async function upsertSettingsRow(tx: TTx, values: typeof campaignEmailSettings.$inferInsert): Promise<void> {
  const { hostId: _hostId, ...rest } = values;
  await tx
    .insert(campaignEmailSettings)
    .values(values)
    .onConflictDoUpdate({ target: campaignEmailSettings.hostId, set: { ...rest, updatedAt: sql`now()` } });
}

export interface TChainHost {
  id: string;
  level: 'brand' | 'hotel_group' | 'hotel';
  name: string;
  timezone: string;
}

/** The host and the hosts it inherits from, nearest first: hotel, its hotel group, the brand. */
export async function inheritanceChain(tx: TTx, hostId: string): Promise<TChainHost[]> {
  const [host] = await tx.select().from(hosts).where(eq(hosts.id, hostId));
  if (!host || host.level === 'grand_user') return [];
  const chain: TChainHost[] = [{ id: host.id, level: host.level, name: host.name, timezone: host.timezone }];
  const above = [host.hotelGroupId, host.level === 'brand' ? null : host.brandId].filter((x): x is string => !!x);
  if (above.length) {
    const rows = await tx
      .select()
      .from(hosts)
      .where(and(inArray(hosts.id, above), isNotNull(hosts.level)));
    for (const id of above) {
      const row = rows.find((r) => r.id === id);
      if (row && row.level !== 'grand_user')
        chain.push({ id: row.id, level: row.level, name: row.name, timezone: row.timezone });
    }
  }
  return chain;
}

/** Whether the acting brand has any segment or template yet (row-level security scopes the table to it). */
export async function brandHasRows(tx: TTx, table: 'segments' | 'templates'): Promise<boolean> {
  const [row] = await selectRows<{ found: boolean }>(
    tx,
    sql`select exists (select 1 from ${sql.identifier(table)}) as found`,
  );
  return row?.found ?? false;
}

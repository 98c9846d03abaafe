import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { fullName, type TTemplateContents, type TTemplateLanguage, type TTemplateSummary } from '@yado/contracts';
import type { TTx } from '../../db/client.ts';
import { hosts, templates, templateUses, users } from '../../db/schema.ts';
import { customerScope } from '../customers/queries.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';

/** The one place that touches templates and template_uses. */

/**
 * The templates an acting context may use: its host's own and, below a brand (a hotel group or a
 * hotel), the brand's. Row-level security has already kept other brands out.
 */
export function usableBy(ctx: TActingContext): SQL {
  const own = eq(templates.hostId, ctx.host.id);
  if ((ctx.host.level === 'hotel_group' || ctx.host.level === 'hotel') && ctx.host.brandId) {
    return or(own, eq(templates.hostId, ctx.host.brandId)) as SQL;
  }
  return own;
}

const summaryColumns = {
  id: templates.id,
  brandId: templates.brandId,
  hostId: templates.hostId,
  hostLevel: hosts.level,
  hostName: hosts.name,
  hostTimeZone: hosts.timezone,
  name: templates.name,
  description: templates.description,
  coverImageUrl: templates.coverImageUrl,
  defaultLanguage: templates.defaultLanguage,
  // The languages present, so a list need not carry every document.
  languages: sql<
    TTemplateLanguage[]
  >`array_remove(array[case when jsonb_typeof(${templates.contents}->'ja') = 'object' then 'ja' end,
    case when jsonb_typeof(${templates.contents}->'en') = 'object' then 'en' end], null)`,
  version: templates.version,
  createdAt: templates.createdAt,
  updatedAt: templates.updatedAt,
  updatedByFirst: users.firstName,
  updatedByLast: users.lastName,
};
const columns = { ...summaryColumns, contents: templates.contents };

export interface TTemplateSummaryRecord {
  id: string;
  brandId: string | null;
  hostId: string;
  hostLevel: 'grand_user' | 'brand' | 'hotel_group' | 'hotel';
  hostName: string;
  /** The owner's time zone: the list shows the template's times in it. */
  hostTimeZone: string;
  name: string;
  description: string;
  coverImageUrl: string | null;
  defaultLanguage: TTemplateLanguage;
  languages: TTemplateLanguage[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
  updatedByFirst: string | null;
  updatedByLast: string | null;
}
export interface TTemplateRecord extends TTemplateSummaryRecord {
  contents: TTemplateContents;
}

const select = (tx: TTx) =>
  tx
    .select(columns)
    .from(templates)
    .innerJoin(hosts, eq(hosts.id, templates.hostId))
    .leftJoin(users, eq(users.id, templates.updatedBy));
const selectSummary = (tx: TTx) =>
  tx
    .select(summaryColumns)
    .from(templates)
    .innerJoin(hosts, eq(hosts.id, templates.hostId))
    .leftJoin(users, eq(users.id, templates.updatedBy));

/** The shape the API answers with, without the contents. */
export function toSummary(r: TTemplateSummaryRecord, ctx: TActingContext): TTemplateSummary {
  const languages = (['ja', 'en'] as const).filter((l) => r.languages.includes(l));
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    coverImageUrl: r.coverImageUrl,
    defaultLanguage: r.defaultLanguage,
    languages,
    // The platform's own host is not a level of the contract; its templates show as brand-level.
    owner: { hostId: r.hostId, level: r.hostLevel === 'grand_user' ? 'brand' : r.hostLevel, name: r.hostName },
    editable: r.hostId === ctx.host.id,
    version: r.version,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    updatedByName: r.updatedByFirst !== null ? fullName(r.updatedByFirst, r.updatedByLast ?? '') : null,
  };
}

export interface TTemplateFilter {
  search?: string | undefined;
  sort: '-updated_at' | 'updated_at' | 'name' | '-name';
  page: number;
  pageSize: number;
}

export async function listTemplates(
  tx: TTx,
  ctx: TActingContext,
  f: TTemplateFilter,
): Promise<{ items: TTemplateSummaryRecord[]; total: number }> {
  const pattern = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    usableBy(ctx),
    pattern ? or(ilike(templates.name, pattern), ilike(templates.description, pattern)) : undefined,
  );
  const order = {
    '-updated_at': [desc(templates.updatedAt), asc(templates.id)],
    updated_at: [asc(templates.updatedAt), asc(templates.id)],
    name: [asc(templates.name), asc(templates.id)],
    '-name': [desc(templates.name), asc(templates.id)],
  }[f.sort];
  const rows = await selectSummary(tx)
    .where(where)
    .orderBy(...order)
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize);
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(templates)
    .where(where);
  return { items: rows as TTemplateSummaryRecord[], total: count?.n ?? 0 };
}

export async function findTemplate(tx: TTx, ctx: TActingContext, id: string): Promise<TTemplateRecord | null> {
  const [row] = await select(tx).where(and(eq(templates.id, id), usableBy(ctx)));
  return (row as TTemplateRecord | undefined) ?? null;
}

export interface TTemplateValues {
  name: string;
  description: string;
  defaultLanguage: TTemplateLanguage;
  contents: TTemplateContents;
  coverImageUrl: string | null;
}

export async function insertTemplate(tx: TTx, ctx: TActingContext, values: TTemplateValues): Promise<string> {
  const [row] = await tx
    .insert(templates)
    .values({
      ...values,
      brandId: ctx.host.brandId,
      hostId: ctx.host.id,
      createdBy: ctx.user.id,
      updatedBy: ctx.user.id,
    })
    .returning({ id: templates.id });
  return (row as { id: string }).id;
}

/**
 * Saves `values` over the template if it is the acting host's and still at `version`; the new
 * version, or null when either is not so (the caller tells which).
 */
export async function updateTemplate(
  tx: TTx,
  ctx: TActingContext,
  id: string,
  version: number,
  values: Partial<TTemplateValues>,
): Promise<number | null> {
  const [row] = await tx
    .update(templates)
    .set({ ...values, version: sql`${templates.version} + 1`, updatedBy: ctx.user.id, updatedAt: sql`now()` })
    .where(and(eq(templates.id, id), eq(templates.hostId, ctx.host.id), eq(templates.version, version)))
    .returning({ version: templates.version });
  return row?.version ?? null;
}

export async function deleteTemplate(tx: TTx, ctx: TActingContext, id: string): Promise<boolean> {
  const rows = await tx
    .delete(templates)
    .where(and(eq(templates.id, id), eq(templates.hostId, ctx.host.id)))
    .returning({ id: templates.id });
  return rows.length > 0;
}

/**
 * The campaigns that have not finished and use the template, by name: the campaigns module
 * writes such a use `scheduled` whether the campaign is scheduled, sending or paused.
 */
export async function unfinishedUses(tx: TTx, templateId: string): Promise<string[]> {
  const rows = await tx
    .select({ name: templateUses.campaignName })
    .from(templateUses)
    .where(and(eq(templateUses.templateId, templateId), eq(templateUses.status, 'scheduled')))
    .orderBy(asc(templateUses.campaignName));
  return rows.map((row) => row.name);
}

export async function listUses(tx: TTx, templateId: string) {
  return tx
    .select({
      campaignId: templateUses.campaignId,
      campaignName: templateUses.campaignName,
      status: templateUses.status,
      updatedAt: templateUses.updatedAt,
    })
    .from(templateUses)
    .where(eq(templateUses.templateId, templateId))
    .orderBy(desc(templateUses.updatedAt));
}

/**
 * Records that a campaign uses a template (or no longer does, with `status: null`): for the
 * campaigns module, in its own transaction.
 */
export async function recordTemplateUse(
  tx: TTx,
  use: {
    templateId: string;
    campaignId: string;
    brandId: string | null;
    campaignName: string;
    status: (typeof templateUses.$inferInsert)['status'] | null;
  },
): Promise<void> {
  if (use.status === null) {
    await tx
      .delete(templateUses)
      .where(and(eq(templateUses.templateId, use.templateId), eq(templateUses.campaignId, use.campaignId)));
    return;
  }
  await tx
    .insert(templateUses)
    .values({
      templateId: use.templateId,
      campaignId: use.campaignId,
      brandId: use.brandId,
      campaignName: use.campaignName,
      status: use.status,
    })
    .onConflictDoUpdate({
      target: [templateUses.templateId, templateUses.campaignId],
      set: { campaignName: use.campaignName, status: use.status, updatedAt: sql`now()` },
    });
}

/**
 * A customer's data for a preview or test, if the acting context reaches the customer: names,
 * email, and their next stay (else the last).
 */
export async function guestData(tx: TTx, ctx: TActingContext, customerId: string) {
  const rows =
    await tx.execute(sql`select customers.first_name as "firstName", customers.last_name as "lastName", customers.email,
      b.check_in::text as "checkIn", b.check_out::text as "checkOut", b.room_name as "roomName", b.guests as "numberOfGuests",
      h.name as "hotelName", br.name as "brandName"
    from customers
    left join lateral (
      select * from bookings b where b.customer_id = customers.id and b.status <> 'cancelled'
      order by (b.check_in >= current_date) desc, case when b.check_in >= current_date then b.check_in end asc, b.check_in desc
      limit 1
    ) b on true
    left join hosts h on h.id = b.hotel_id
    left join hosts br on br.id = customers.brand_id
    where customers.id = ${customerId} and ${customerScope(ctx)}`);
  const [row] = (rows as unknown as { rows: Record<string, unknown>[] }).rows;
  return (
    (row as
      | {
          firstName: string;
          lastName: string;
          email: string | null;
          checkIn: string | null;
          checkOut: string | null;
          roomName: string | null;
          numberOfGuests: number | null;
          hotelName: string | null;
          brandName: string | null;
        }
      | undefined) ?? null
  );
}

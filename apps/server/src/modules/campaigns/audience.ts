import type { TAudiencePreview, TFilter } from '@yado/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { selectRows, type TTx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { dateIn, type TSegmentScope } from '../segments/filter-env.ts';
import { customerScopeSql, filterSql } from '../segments/filter-sql.ts';
import { brandTimeZone, memberOf, scopeOfHost } from '../segments/queries.ts';
import { suppressedSql, suppressionJoinSql } from '../deliverability/suppression.ts';
import { armSql, uniformSql, type TExperimentShape } from '../experiments/assignment.ts';

/**
 * A campaign's audience as SQL over `customers`: within the campaign host's reach (a hotel: its
 * customers; a group: its hotels'; a brand: all), in any chosen segment (each within its own
 * scope), in none of the excluded ones. One predicate, so the preview counts it and the send
 * snapshots it with one statement each, and a customer in two segments is one row.
 */

export interface TAudienceOwner {
  brandId: string;
  hostId: string;
  hostLevel: 'brand' | 'hotel_group' | 'hotel';
}

interface TSegmentForAudience {
  id: string;
  host_id: string;
  host_level: 'brand' | 'hotel_group' | 'hotel';
  type: 'dynamic' | 'static';
  filter: unknown;
}

const p = (value: unknown): SQL => sql`${sql.param(value)}`;

async function segmentPredicate(
  tx: TTx,
  brandId: string,
  segment: TSegmentForAudience,
  today: string,
  timeZone: string,
): Promise<SQL> {
  const scope = await scopeOfHost(tx, { id: segment.host_id, level: segment.host_level, brandId });
  if (segment.type === 'static' || !segment.filter)
    return sql`(${customerScopeSql(scope)} and ${memberOf(segment.id)})`;
  return sql`(${customerScopeSql(scope)} and ${filterSql(segment.filter as TFilter, scope, { today, timeZone }, 'set')})`;
}

export interface TAudienceSql {
  /** Predicate over `customers`. */
  where: SQL;
  scope: TSegmentScope;
}

/**
 * The audience predicate; 409 campaign_segment_deleted when a chosen segment no longer exists.
 * `at`: the moment whose date the segments' relative dates count from (the scenario engine's
 * clock; a campaign's is now).
 */
export async function audienceSql(
  tx: TTx,
  owner: TAudienceOwner,
  include: string[],
  exclude: string[],
  at: Date = new Date(),
): Promise<TAudienceSql> {
  const ids = [...new Set([...include, ...exclude])];
  const segments = ids.length
    ? await selectRows<TSegmentForAudience>(
        tx,
        sql`select s.id, s.host_id, h.level as host_level, s.type, s.filter from segments s join hosts h on h.id = s.host_id
          where s.id = any(${p(ids)}::uuid[]) and s.brand_id = ${owner.brandId}::uuid`,
      )
    : [];
  if (segments.length !== ids.length) throw new AppError(409, 'campaign_segment_deleted');
  const timeZone = await brandTimeZone(tx, owner.brandId);
  const today = dateIn(at, timeZone);
  const byId = new Map(segments.map((s) => [s.id, s]));
  const predicate = async (list: string[]) =>
    Promise.all(
      list.map((id) => segmentPredicate(tx, owner.brandId, byId.get(id) as TSegmentForAudience, today, timeZone)),
    );
  const scope = await scopeOfHost(tx, { id: owner.hostId, level: owner.hostLevel, brandId: owner.brandId });
  const included = await predicate(include);
  const excluded = await predicate(exclude.filter((id) => !include.includes(id)));
  const parts = [customerScopeSql(scope), included.length ? sql`(${sql.join(included, sql` or `)})` : sql`false`];
  if (excluded.length) parts.push(sql`not coalesce(${sql.join(excluded, sql` or `)}, false)`);
  return { where: sql.join(parts, sql` and `), scope };
}

/**
 * Email status active and an email address: the customer row under `alias` is mailable unless the
 * address is suppressed. The dashboard's active customers count by this and the suppression list's
 * entry (dashboard/queries.ts countCustomers), so they are the guests a campaign can reach.
 */
export function activeWithAddressSql(alias: string): SQL {
  const c = sql.raw(alias);
  return sql`${c}.email_status = 'active' and nullif(${c}.email, '') is not null`;
}

/**
 * How a statement reads the suppression list for the customer row under its alias: `entry`, the
 * alias of the entry suppressionJoinSql left-joined once (a count or snapshot over many customers);
 * else probed per row (suppressedSql's EXISTS) as at `at`, for a batch of deliveries or a journey's
 * set.
 */
export type TSuppressionRead = { entry: string } | { at?: Date };

/** The address of the customer row under `alias` is on the brand's suppression list now (or at `at`). */
export function suppressedBy(alias: string, read: TSuppressionRead = {}): SQL {
  return 'entry' in read ? sql`(${sql.raw(read.entry)}.brand_id is not null)` : suppressedSql(alias, read.at);
}

/**
 * Mailable: email status active, an email address, and no active entry on the brand's suppression
 * list (issue 25: a hard bounce, soft bounces within their 30 days, a complaint, a manual entry;
 * soft bounces whose 30 days are over are mailed again). The one rule for the preview, the send's
 * snapshot, each claim and hand-over (send-queries.ts), a journey's mails and the dashboard's
 * active customers. Over many customers, read the list joined (`{ entry }`): probed per customer
 * inside a count's FILTER, PostgreSQL plans the EXISTS as if it ran once and probes the list's
 * index a million times (docs/benchmarks.md, segment-count, the campaign audience preview).
 */
export function mailableSql(alias: string, read: TSuppressionRead = {}): SQL {
  // A column of the join's condition read as null: in a WHERE, PostgreSQL makes the join an anti-join.
  const unlisted =
    'entry' in read ? sql`${sql.raw(read.entry)}.brand_id is null` : sql`not ${suppressedSql(alias, read.at)}`;
  return sql`${activeWithAddressSql(alias)} and ${unlisted}`;
}

/** Mailable now, the list probed per row: mailableSql for `customers`. */
export const MAILABLE = mailableSql('customers');

/**
 * At the frequency cap: `count` marketing mails sent in the last `days` days before now, or before
 * `at` (the demo history sends campaigns in the past).
 */
export const atCap = (cap: { count: number; days: number }, at?: Date): SQL =>
  sql`(select count(*) from deliveries fd where fd.customer_id = customers.id and ${sentWithin(cap, at)}) >= ${cap.count}::int`;

/** A sent delivery `fd` inside the frequency cap's window, which ends now or at `at`. */
function sentWithin(cap: { count: number; days: number }, at?: Date): SQL {
  const now = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  const until = at ? sql` and fd.sent_at <= ${now}` : sql``;
  return sql`fd.status = 'sent' and fd.sent_at > ${now} - make_interval(days => ${cap.days}::int)${until}`;
}

/**
 * The brand's customers at the frequency cap, as one set (atCap's twin for a whole audience). The
 * snapshot inserts into the very table atCap reads: planned with statistics that say deliveries is
 * nearly empty (a new brand's first large campaign, or right after an analyze), atCap's subquery is
 * a sequential scan per customer over a heap that the statement itself fills, and a 100,000-guest
 * snapshot took 132 s instead of 3 (docs/benchmarks.md, send). This set is read once, before the
 * first row goes in, whatever the plan.
 */
const capHits = (brandId: string, cap: { count: number; days: number }, at?: Date): SQL =>
  sql`select fd.customer_id from deliveries fd where fd.brand_id = ${brandId}::uuid and ${sentWithin(cap, at)}
    group by fd.customer_id having count(*) >= ${cap.count}::int`;

/**
 * JIT compilation off for the rest of the transaction, before the preview's count or the snapshot,
 * as for the segment counts (segments/queries.ts brandTimeZone): at a million customers their cost
 * passes jit_above_cost, and the snapshot's (an INSERT with a subquery per row) the inlining and
 * optimising thresholds too; compiling cost 40 to 80 ms of each preview and 0.77 s of a snapshot
 * and bought nothing measurable (docs/benchmarks.md, the campaign audience preview). Work memory
 * stays at the server's: 64 MB made the set of the guests at the cap slower, not faster (same place).
 */
async function jitOff(tx: TTx): Promise<void> {
  await tx.execute(sql`select set_config('jit', 'off', true)`);
}

/**
 * The preview's counts. With `holdout` (a saved campaign's id and share), also the mailable guests
 * its snapshot would hold out, by the same hash (`uniformSql`), before the frequency cap as there:
 * `recipients` is then who would be mailed, those held out apart. The suppression list and the
 * customers at the cap (capHits, as the snapshot reads them) are each joined once: probed per
 * customer, the two took about 6 s at a million (docs/benchmarks.md, the campaign audience
 * preview). Joined, not `in (select ...)`: a set too large for work memory is not hashed, and
 * would be scanned again for every customer.
 */
export async function previewCounts(
  tx: TTx,
  audience: TAudienceSql,
  cap: { count: number; days: number },
  holdout: { seed: string; share: number } | null = null,
): Promise<TAudiencePreview> {
  const held = holdout
    ? sql`${uniformSql(sql`${holdout.seed}::text`, sql`customers.id`)} < ${holdout.share}::double precision`
    : sql`false`;
  const listed = { entry: 'suppression' };
  const mailable = mailableSql('customers', listed);
  const capped = sql`at_cap.customer_id is not null`;
  await jitOff(tx);
  const [row] = await selectRows<Omit<TAudiencePreview, 'recipients'> & { heldOut: number; cappedHeld: number }>(
    tx,
    sql`with at_cap as materialized (${capHits(audience.scope.brandId, cap)})
      select count(*)::int as "matched",
      count(*) filter (where customers.email_status <> 'active')::int as "unsubscribed",
      count(*) filter (where customers.email_status = 'active' and nullif(customers.email, '') is null)::int as "noEmail",
      count(*) filter (where ${activeWithAddressSql('customers')} and ${suppressedBy('customers', listed)})::int as "bounced",
      count(*) filter (where ${mailable} and ${capped})::int as "frequencyCapped",
      count(*) filter (where ${mailable} and ${held})::int as "heldOut",
      count(*) filter (where ${mailable} and ${held} and ${capped})::int as "cappedHeld"
      from customers ${suppressionJoinSql(listed.entry, 'customers')}
        left join at_cap on at_cap.customer_id = customers.id
      where ${audience.where}`,
  );
  const { heldOut, cappedHeld, ...r } = row as Omit<TAudiencePreview, 'recipients'> & {
    heldOut: number;
    cappedHeld: number;
  };
  const recipients = r.matched - r.unsubscribed - r.noEmail - r.bounced - r.frequencyCapped;
  if (!holdout) return { ...r, recipients };
  // A held-out guest at the cap is held out (the snapshot draws the holdout first): counted once.
  return { ...r, recipients: recipients - heldOut + cappedHeld, heldOut };
}

/**
 * The send's snapshot: one INSERT ... SELECT of the mailable audience into deliveries (unique per
 * campaign and customer, so running it again adds nothing). Customers at the frequency cap are
 * recorded as skipped with the reason. Each delivery is attributed to one hotel of the reach (the
 * one with the customer's most bookings) for per-hotel statistics. Answers the audience size.
 *
 * With an experiment (issue 26), each delivery's arm and variant are computed in the same
 * statement from a hash of the campaign and the customer (experiments/assignment.ts, the SQL twin
 * of `armOf`) and stored: held-out guests are recorded as skipped with reason 'holdout' (before
 * the frequency cap: the holdout is a random draw of the whole audience), never mailed.
 */
export async function snapshotAudience(
  tx: TTx,
  campaignId: string,
  audience: TAudienceSql,
  cap: { count: number; days: number },
  at?: Date,
  experiment: TExperimentShape | null = null,
): Promise<number> {
  const hotels = audience.scope.hotelIds;
  const hotel = sql`(select a.hotel_id from customer_allocations a where a.customer_id = customers.id
    ${hotels ? sql`and a.hotel_id = any(${p(hotels)}::uuid[])` : sql``} order by a.booking_count desc, a.hotel_id limit 1)`;
  const { arm, variant } = experiment
    ? armSql(experiment, sql`customers.u`)
    : { arm: sql`null::text`, variant: sql`0` };
  const u = experiment ? sql`, ${uniformSql(sql`${experiment.seed}::text`, sql`customers.id`)} as u` : sql``;
  const listed = { entry: 'suppression' };
  await jitOff(tx);
  // The customers at the cap are joined once, as in the preview: `in (select ...)` is hashed only
  // while the set fits in work memory, and a larger one would be scanned again for every customer.
  await tx.execute(sql`with at_cap as materialized (${capHits(audience.scope.brandId, cap, at)})
    insert into deliveries (campaign_id, brand_id, customer_id, hotel_id, email, status, skip_reason, arm, variant)
    select ${campaignId}::uuid, customers.brand_id, customers.id, ${hotel}, customers.email,
      case when customers.arm = 'holdout' or capped then 'skipped' else 'queued' end,
      case when customers.arm = 'holdout' then 'holdout' when capped then 'frequency_cap' end, customers.arm, customers.variant
    from (select customers.*, ${arm} as arm, ${variant} as variant
      from (select customers.*, at_cap.customer_id is not null as capped${u}
        from customers ${suppressionJoinSql(listed.entry, 'customers')}
          left join at_cap on at_cap.customer_id = customers.id
        where ${audience.where} and ${mailableSql('customers', listed)}) customers) customers
    on conflict (campaign_id, customer_id) do nothing`);
  const [row] = await selectRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from deliveries where campaign_id = ${campaignId}::uuid`,
  );
  return row?.n ?? 0;
}

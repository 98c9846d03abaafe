import { sql } from 'drizzle-orm';
import type { TErrorCode } from '@yado/contracts';
import { openSecret } from '../../../crypto/secret-box.ts';
import { selectRows, withTenant, writeInTenant } from '../../../db/client.ts';
import { AppError } from '../../../http/errors.ts';
import { unstorableTextPath } from '../../../http/unstorable-text.ts';
import { countFeedbackWebhook } from '../../../metrics/metrics.ts';
import type { TRuntime } from '../../../runtime.ts';
import { openReturnPathAddress } from '../verp.ts';
import { webhookApplierOf } from './apply-webhook-events.ts';
import { mailgunEvent, postmarkEvent, sendgridEvent, sesEvent, type TProviderEvent } from './provider-events.ts';
import {
  WebhookRefusal,
  fetchSns,
  isSnsUrl,
  verifyMailgun,
  verifyPostmark,
  verifySendgrid,
  verifySns,
  type TRefusal,
  type TSnsMessage,
} from './verify.ts';

/**
 * A relay's webhook (issue 25): `POST /v1/public/relay-webhooks/<provider>/<webhook id>`, the
 * address a brand pastes at its relay. No session: the provider's signature is the
 * authentication (verify.ts), under the brand's secret. A verified request's events are read
 * (provider-events.ts), matched to the brand's deliveries and stored as received once per
 * provider event id (`relay_webhook_events`), in group-commit batches; the relay is answered once
 * its batch is committed. Only the newly stored events then go through the rules, a moment later
 * and each once (apply-webhook-events.ts, apply-feedback.ts: itself once per delivery and kind,
 * so a DSN and a webhook about the same bounce act once). Anything unverified, too old, replayed, off the SNS
 * host, of another topic or naming another brand's delivery is refused with a 4xx, counted
 * (`yado_feedback_webhook_events_total`), and changes nothing.
 */

export const WEBHOOK_PROVIDERS = ['ses', 'sendgrid', 'mailgun', 'postmark'] as const;
export type TWebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

/** A relay's batch is at most this large (SendGrid posts up to 768 KB). */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;
const MAX_BATCH_EVENTS = 5000;

export interface TWebhookResult {
  received: number;
  applied: number;
  duplicates: number;
  ignored: number;
  confirmed: boolean;
}

export interface TWebhookRequest {
  provider: string;
  hookId: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent (the signatures cover it). */
  body: string;
  /**
   * The body read as JSON already, when it is JSON (the route's parser), else undefined; every
   * route's check for texts PostgreSQL cannot keep (http/unstorable-text.ts) has walked it.
   */
  parsed?: unknown;
}

const REFUSALS: Record<TRefusal, [number, TErrorCode]> = {
  signature: [401, 'webhook_unverified'],
  old: [401, 'webhook_too_old'],
  replay: [409, 'webhook_replayed'],
  certificate: [400, 'webhook_certificate_url'],
  topic: [403, 'webhook_topic'],
  brand: [403, 'webhook_foreign_delivery'],
  unknown: [404, 'webhook_unknown'],
  body: [400, 'webhook_body_invalid'],
};

const SYSTEM = { scopeAll: true, brandId: null } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const header = (headers: TWebhookRequest['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const isProvider = (value: string): value is TWebhookProvider =>
  (WEBHOOK_PROVIDERS as readonly string[]).includes(value);

interface THook {
  brandId: string;
  secret: string | null;
  topicArn: string | null;
}

/**
 * Webhooks read lately, by provider and id: a relay posts many events a second. An entry older than
 * HOOK_FRESH_MS is still used while one read in the background refreshes it (a read at every
 * expiry, awaited, held the requests that met it and took pool connections from the intake's
 * batches); one older than HOOK_MAX_AGE_MS (its refresh failing, the database away) is read
 * again before use. Concurrent requests for a webhook not held share one read. A change in the
 * settings forgets this process's copies at once (forgetHooks); other processes see it within
 * HOOK_FRESH_MS and a read.
 */
const HOOK_FRESH_MS = 10_000;
const HOOK_MAX_AGE_MS = 60_000;

interface TCachedHook {
  hook: Promise<THook>;
  at: number;
  refreshing: boolean;
}
const hooks = new Map<string, TCachedHook>();

export function forgetHooks(): void {
  hooks.clear();
}

function hookOf(rt: TRuntime, provider: TWebhookProvider, hookId: string): Promise<THook> {
  if (!UUID.test(hookId)) throw new WebhookRefusal('unknown');
  // By provider and id: a request naming the wrong provider never touches the right one's copy.
  const key = `${provider} ${hookId}`;
  let cached = hooks.get(key);
  const age = cached ? Date.now() - cached.at : Infinity;
  if (!cached || age >= HOOK_MAX_AGE_MS) cached = cacheHook(key, readHook(rt, provider, hookId));
  else if (age >= HOOK_FRESH_MS && !cached.refreshing) refreshHook(key, cached, readHook(rt, provider, hookId));
  return cached.hook;
}

/** Holds a read (a refusal or a failure is not held: the next request reads again). */
function cacheHook(key: string, read: Promise<THook>): TCachedHook {
  const entry: TCachedHook = { hook: read, at: Date.now(), refreshing: false };
  read.catch(() => {
    if (hooks.get(key) === entry) hooks.delete(key);
  });
  if (hooks.size > 10_000) hooks.clear();
  hooks.set(key, entry);
  return entry;
}

function refreshHook(key: string, entry: TCachedHook, read: Promise<THook>): void {
  entry.refreshing = true;
  read.then(
    (hook) => {
      if (hooks.get(key) === entry) cacheHook(key, Promise.resolve(hook));
    },
    (error: unknown) => {
      // Gone (deleted, or no longer this provider's): forgotten; else tried again by the next request.
      if (error instanceof WebhookRefusal && hooks.get(key) === entry) hooks.delete(key);
      else entry.refreshing = false;
    },
  );
}

async function readHook(rt: TRuntime, provider: TWebhookProvider, hookId: string): Promise<THook> {
  const [row] = await withTenant(rt.database.db, SYSTEM, (tx) =>
    selectRows<{ brand_id: string; secret: string | null; topic_arn: string | null }>(
      tx,
      sql`select brand_id, secret, topic_arn from relay_webhooks where id = ${hookId}::uuid and provider = ${provider}`,
    ),
  );
  if (!row) throw new WebhookRefusal('unknown');
  return {
    brandId: row.brand_id,
    secret: row.secret ? openSecret(row.secret, rt.config.dataEncryptionKey) : null,
    topicArn: row.topic_arn,
  };
}

function parseJson(body: string, parsed?: unknown): unknown {
  if (parsed !== undefined) return parsed;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new WebhookRefusal('body');
  }
  // PostgreSQL's jsonb keeps neither NUL nor a lone surrogate (checked already when the route parsed it).
  if (unstorableTextPath(value) !== null) throw new WebhookRefusal('body');
  return value;
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

interface TVerified {
  events: TProviderEvent[];
  /** Entries of the batch that are no event we can read (counted as ignored). */
  unreadable: number;
  replayKey: string | null;
  /** An SNS subscription confirmed: the confirmation message, kept as an event the settings read. */
  confirmed?: Record<string, unknown>;
}

async function verified(
  rt: TRuntime,
  provider: TWebhookProvider,
  hook: THook,
  request: TWebhookRequest,
): Promise<TVerified> {
  const maxAge = rt.config.webhooks.maxAgeSeconds;
  if (provider === 'ses') {
    const message = record(parseJson(request.body, request.parsed)) as unknown as TSnsMessage;
    await verifySns(rt.config, message);
    if (hook.topicArn && message.TopicArn !== hook.topicArn) throw new WebhookRefusal('topic');
    if (message.Type === 'SubscriptionConfirmation') {
      if (!isSnsUrl(rt.config, message.SubscribeURL)) throw new WebhookRefusal('certificate');
      await fetchSns(rt.config, message.SubscribeURL);
      return { events: [], unreadable: 0, replayKey: null, confirmed: message as unknown as Record<string, unknown> };
    }
    if (message.Type !== 'Notification') return { events: [], unreadable: 0, replayKey: null };
    // SES's own notices on the topic (the destination's test message) are no event: taken and ignored.
    let inner: unknown;
    try {
      inner = parseJson(message.Message);
    } catch {
      inner = null;
    }
    const event = sesEvent(message.MessageId, inner);
    return event ? { events: [event], unreadable: 0, replayKey: null } : { events: [], unreadable: 1, replayKey: null };
  }
  if (!hook.secret) throw new WebhookRefusal('signature');
  if (provider === 'sendgrid') {
    verifySendgrid(
      hook.secret,
      {
        signature: header(request.headers, 'x-twilio-email-event-webhook-signature'),
        timestamp: header(request.headers, 'x-twilio-email-event-webhook-timestamp'),
      },
      Buffer.from(request.body, 'utf8'),
      maxAge,
    );
    const batch = parseJson(request.body, request.parsed);
    if (!Array.isArray(batch) || batch.length > MAX_BATCH_EVENTS) throw new WebhookRefusal('body');
    const events = batch.map(sendgridEvent).filter((e): e is TProviderEvent => e !== null);
    return { events, unreadable: batch.length - events.length, replayKey: null };
  }
  if (provider === 'mailgun') {
    const body = record(parseJson(request.body, request.parsed));
    const { token } = verifyMailgun(hook.secret, record(body.signature), maxAge);
    const event = mailgunEvent(body['event-data']);
    if (!event) throw new WebhookRefusal('body');
    return { events: [event], unreadable: 0, replayKey: token };
  }
  verifyPostmark(hook.secret, {
    authorization: header(request.headers, 'authorization'),
    secretHeader: header(request.headers, 'x-yado-webhook-secret'),
  });
  const event = postmarkEvent(parseJson(request.body, request.parsed));
  if (!event) throw new WebhookRefusal('body');
  return { events: [event], unreadable: 0, replayKey: null };
}

/**
 * The store of one batch (writeBatch): its text fixed, so nothing is built for it per batch but
 * one JSON document of its events, one object each (`jsonb_to_recordset`: the payloads arrive as
 * the document's own values, parsed once, where nine array parameters were each spelled out and
 * escaped element by element by the driver, the payloads twice over: a seventh of all the
 * server allocated under issue 25's bench).
 * Planned once per connection for any values ('generic' below), so its plan must suit any size of
 * table: each event's replay check, brand check and delivery are probes of an index (`offset 0`
 * keeps each subquery a probe PostgreSQL cannot turn into a join), and the replay check has but
 * one index to probe (the tokens' own table). As joins, a connection that planned them while the
 * tables were small (a new installation) hashed the batch and read the whole of
 * `relay_webhook_events` and `deliveries` for every request from then on, for as long as it lived.
 *
 * The requests neither replayed nor naming another brand's delivery (`fresh`) take their tokens
 * (`taken`); one taken meanwhile by another process's batch, which the replay check could not yet
 * see, makes its request a replay too (`raced`).
 */
export const STORE_EVENTS = `with v as (
    select * from jsonb_to_recordset($1::jsonb) as v(req int, brand_id uuid, provider text, event_id text,
      replay_key text, delivery_id uuid, kind text, feedback jsonb, raw jsonb, n int)
  ), replayed as (
    select v.req from v where v.replay_key is not null and exists (select from relay_webhook_replay_keys k
      where k.brand_id = v.brand_id and k.provider = v.provider and k.replay_key = v.replay_key offset 0)
  ), foreign_brand as (
    select distinct v.req from v where v.req not in (select req from replayed)
      and exists (select from deliveries d where d.id = v.delivery_id and d.brand_id <> v.brand_id offset 0)
  ), fresh as (
    select v.* from v where v.req not in (select req from replayed) and v.req not in (select req from foreign_brand)
  ), taken as (
    insert into relay_webhook_replay_keys (brand_id, provider, replay_key)
    select f.brand_id, f.provider, f.replay_key from fresh f where f.replay_key is not null
    on conflict do nothing
    returning brand_id, provider, replay_key
  ), raced as (
    select f.req from fresh f where f.replay_key is not null
      and (f.brand_id, f.provider, f.replay_key) not in (select brand_id, provider, replay_key from taken)
  ), stored as (
    insert into relay_webhook_events (brand_id, provider, event_id, delivery_id, kind, feedback, raw)
    select v.brand_id, v.provider, v.event_id, d.id,
      case when d.id is not null then v.kind end, case when d.id is not null and v.kind is not null then v.feedback end, v.raw
    from fresh v left join lateral (select d.id from deliveries d where d.id = v.delivery_id and d.brand_id = v.brand_id offset 0) d on true
    where v.req not in (select req from raced)
    order by v.n
    on conflict do nothing
    returning id, brand_id, brand_id || ' ' || provider || ' ' || event_id as key, kind is not null as pending
  ), queued as (
    insert into relay_webhook_pending (event_id, brand_id) select id, brand_id from stored where pending
  )
  select 'replay' as what, req, null as key, null::boolean as pending from replayed
  union all select 'replay', req, null, null from raced
  union all select 'brand', req, null, null from foreign_brand
  union all select 'stored', null, key, pending from stored`;

/** One verified request waiting for the next batch. */
interface TPending {
  provider: TWebhookProvider;
  brandId: string;
  v: TVerified;
  resolve: (result: Omit<TWebhookResult, 'confirmed'> | WebhookRefusal) => void;
  reject: (error: Error) => void;
}

const MAX_BATCH = 200;
/**
 * Batches written at once per process (each its own transaction and connection). One: the
 * requests that arrive while a batch is written all go in the next, so a busy relay's requests
 * share round trips and commits rather than each taking its own. With two at a time, most batches
 * held a request or two, and PostgreSQL and the server spent a tenth more CPU per request for the
 * same answers; at 1,000 requests a second on two cores that was the p99's queue (issue 25's
 * bench, docs/benchmarks.md: 80 ms against 21 ms, the median of three runs each).
 */
const CONCURRENT_BATCHES = 1;

/**
 * Group commit: the verified requests that arrive while CONCURRENT_BATCHES batches are being
 * written wait for the next one, and each batch is one transaction (scope-all: the deliveries of
 * every brand must be seen to refuse another brand's). A request is answered once its batch is
 * committed.
 */
class WebhookBatcher {
  private queue: TPending[] = [];
  private running = 0;

  constructor(private readonly rt: TRuntime) {}

  submit(item: Omit<TPending, 'resolve' | 'reject'>): Promise<Omit<TWebhookResult, 'confirmed'> | WebhookRefusal> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...item, resolve, reject });
      if (this.running < CONCURRENT_BATCHES) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running++;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const results = await writeBatch(this.rt, batch);
          webhookApplierOf(this.rt).nudge();
          batch.forEach((item, i) => item.resolve(results[i] as Omit<TWebhookResult, 'confirmed'> | WebhookRefusal));
        } catch (error) {
          for (const item of batch) item.reject(error as Error);
        }
      }
    } finally {
      this.running--;
    }
  }
}

const batchers = new WeakMap<TRuntime, WebhookBatcher>();
const batcherOf = (rt: TRuntime): WebhookBatcher => {
  let b = batchers.get(rt);
  if (!b) batchers.set(rt, (b = new WebhookBatcher(rt)));
  return b;
};

/**
 * One batch, in one statement and one round trip (its own transaction, committed before the
 * relay is answered): refuses the requests that reuse a signature token (here or before) or name
 * another brand's delivery, stores the others' events once per provider event id, and says which
 * were newly stored and have something to apply. Each round trip more (the begin, a lookup, the
 * commit) was a millisecond or more of every answer's wait.
 */
async function writeBatch(
  rt: TRuntime,
  batch: TPending[],
): Promise<(Omit<TWebhookResult, 'confirmed'> | WebhookRefusal)[]> {
  const results: (Omit<TWebhookResult, 'confirmed'> | WebhookRefusal | null)[] = batch.map(() => null);
  // A token repeated within the batch: the first request takes it, the others are replays.
  const tokens = new Set<string>();
  const rows: {
    req: number;
    brandId: string;
    provider: string;
    eventId: string;
    replayKey: string | null;
    e: TProviderEvent;
  }[] = [];
  batch.forEach((item, req) => {
    if (item.v.replayKey) {
      const key = `${item.brandId} ${item.provider} ${item.v.replayKey}`;
      if (tokens.has(key)) return void (results[req] = new WebhookRefusal('replay'));
      tokens.add(key);
    }
    item.v.events.forEach((e, n) => {
      if (!e.deliveryId && e.returnPath) {
        const opened = openReturnPathAddress(rt, e.returnPath);
        if (opened) {
          e.deliveryId = opened.deliveryId;
          e.sendingDomain ??= opened.sendingDomain;
        }
      }
      rows.push({
        req,
        brandId: item.brandId,
        provider: item.provider,
        eventId: e.eventId.slice(0, 500),
        replayKey: n === 0 ? item.v.replayKey : null,
        e,
      });
    });
  });
  // The replay check probes the tokens' key whole (brand, provider, token). A delivery of another brand
  // refuses its request whole; one that is no delivery of ours (a test send, a deleted campaign)
  // is stored with nothing to apply.
  const answered = rows.length
    ? (
        await writeInTenant(
          rt.database.db,
          SYSTEM,
          [
            {
              sql: STORE_EVENTS,
              params: [
                JSON.stringify(
                  rows.map((r, n) => ({
                    req: r.req,
                    brand_id: r.brandId,
                    provider: r.provider,
                    event_id: r.eventId,
                    replay_key: r.replayKey,
                    delivery_id: r.e.deliveryId ?? null,
                    kind: r.e.feedback?.kind ?? null,
                    feedback: r.e.feedback
                      ? {
                          status: r.e.feedback.status ?? null,
                          diagnostic: r.e.feedback.diagnostic?.slice(0, 1000) ?? null,
                          sendingDomain: r.e.sendingDomain ?? null,
                        }
                      : null,
                    raw: r.e.raw,
                    n,
                  })),
                ),
              ],
            },
          ],
          // Planned once per connection (see TPlans): planned anew for each batch's values, the
          // planning was most of the store's CPU in PostgreSQL.
          'generic',
        )
      )[0]!.map(([what, req, key, pending]) => ({
        what: what as 'replay' | 'brand' | 'stored',
        req: req as number | null,
        key: key as string | null,
        pending: pending as boolean,
      }))
    : [];
  const fresh = new Map<string, boolean>();
  for (const a of answered) {
    if (a.what === 'stored') fresh.set(a.key as string, a.pending);
    else results[a.req as number] = new WebhookRefusal(a.what);
  }
  batch.forEach((item, i) => {
    if (results[i]) return;
    let taken = 0;
    let applied = 0;
    for (const e of item.v.events) {
      const key = `${item.brandId} ${item.provider} ${e.eventId.slice(0, 500)}`;
      // The first of the batch to carry an event id takes it; a repeat (here or before) is a duplicate.
      const pending = fresh.get(key);
      if (pending === undefined) continue;
      fresh.delete(key);
      taken++;
      if (pending) applied++;
    }
    results[i] = {
      received: item.v.events.length + item.v.unreadable,
      applied,
      duplicates: item.v.events.length - taken,
      ignored: taken - applied + item.v.unreadable,
    };
  });
  return results as (Omit<TWebhookResult, 'confirmed'> | WebhookRefusal)[];
}

export async function receiveWebhook(rt: TRuntime, request: TWebhookRequest): Promise<TWebhookResult> {
  const provider = isProvider(request.provider) ? request.provider : null;
  const label = provider ?? 'unknown';
  try {
    if (!provider) throw new WebhookRefusal('unknown');
    const hook = await hookOf(rt, provider, request.hookId);
    const v = await verified(rt, provider, hook, request);
    if (v.confirmed) {
      // Kept among the events (nothing to apply) so the brand's settings can say the subscription is confirmed.
      const confirmation = v.confirmed;
      await withTenant(rt.database.db, SYSTEM, (tx) =>
        tx.execute(sql`insert into relay_webhook_events (brand_id, provider, event_id, raw)
          values (${hook.brandId}::uuid, ${provider}, ${`subscription:${String(confirmation.MessageId ?? '')}`}, ${JSON.stringify(confirmation)}::jsonb)
          on conflict do nothing`),
      );
      countFeedbackWebhook(label, 'confirmed');
      return { received: 0, applied: 0, duplicates: 0, ignored: 0, confirmed: true };
    }
    const result =
      v.events.length || v.unreadable
        ? await batcherOf(rt).submit({ provider, brandId: hook.brandId, v })
        : { received: 0, applied: 0, duplicates: 0, ignored: 0 };
    if (result instanceof WebhookRefusal) throw result;
    countFeedbackWebhook(label, 'applied', result.applied);
    countFeedbackWebhook(label, 'duplicate', result.duplicates);
    countFeedbackWebhook(label, 'ignored', result.ignored);
    return { ...result, confirmed: false };
  } catch (error) {
    if (!(error instanceof WebhookRefusal)) throw error;
    countFeedbackWebhook(label, `refused_${error.reason}`);
    const [status, code] = REFUSALS[error.reason];
    throw new AppError(status, code);
  }
}

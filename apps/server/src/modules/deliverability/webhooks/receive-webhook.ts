import { sql } from 'drizzle-orm';
import type { TErrorCode } from '@yado/contracts';
import { openSecret } from '../../../crypto/secret-box.ts';
import { selectRows, withTenant } from '../../../db/client.ts';
import { AppError } from '../../../http/errors.ts';
import { unstorableTextPath } from '../../../http/unstorable-text.ts';
import { countFeedbackWebhook } from '../../../metrics/metrics.ts';
import type { TRuntime } from '../../../runtime.ts';
import { applyFeedback, type TFeedback } from '../apply-feedback.ts';
import { openReturnPathAddress } from '../verp.ts';
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
 * (provider-events.ts), matched to the brand's deliveries, stored as received once per provider
 * event id (`relay_webhook_events`), and only the newly stored ones go through the rules
 * (apply-feedback.ts, itself once per delivery and kind: a DSN and a webhook about the same
 * bounce act once), all in one transaction. Anything unverified, too old, replayed, off the SNS
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
  /** The body read as JSON already, when it is JSON (the route's parser), else undefined. */
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

async function hookOf(rt: TRuntime, provider: TWebhookProvider, hookId: string): Promise<THook> {
  if (!UUID.test(hookId)) throw new WebhookRefusal('unknown');
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
  let value: unknown = parsed;
  if (value === undefined)
    try {
      value = JSON.parse(body);
    } catch {
      throw new WebhookRefusal('body');
    }
  // PostgreSQL's jsonb keeps neither NUL nor a lone surrogate.
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
  confirmed?: boolean;
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
      return { events: [], unreadable: 0, replayKey: null, confirmed: true };
    }
    if (message.Type !== 'Notification') return { events: [], unreadable: 0, replayKey: null };
    const event = sesEvent(message.MessageId, parseJson(message.Message));
    if (!event) throw new WebhookRefusal('body');
    return { events: [event], unreadable: 0, replayKey: null };
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

/** The deliveries the events name; refuses the request when one is of another brand. */
async function matchDeliveries(rt: TRuntime, brandId: string, events: TProviderEvent[]): Promise<void> {
  for (const e of events) {
    if (!e.deliveryId && e.returnPath) {
      const opened = openReturnPathAddress(rt, e.returnPath);
      if (opened) {
        e.deliveryId = opened.deliveryId;
        e.sendingDomain ??= opened.sendingDomain;
      }
    }
  }
  const ids = [...new Set(events.map((e) => e.deliveryId).filter((x): x is string => !!x))];
  if (ids.length === 0) return;
  const rows = await withTenant(rt.database.db, SYSTEM, (tx) =>
    selectRows<{ id: string; brand_id: string }>(
      tx,
      sql`select id, brand_id from deliveries where id = any(${sql.param(ids)}::uuid[])`,
    ),
  );
  const brandOf = new Map(rows.map((r) => [r.id, r.brand_id]));
  for (const e of events) {
    if (!e.deliveryId) continue;
    const owner = brandOf.get(e.deliveryId);
    if (owner && owner !== brandId) throw new WebhookRefusal('brand');
    // A mail not of ours (a test send, a deleted campaign): stored, and nothing to apply.
    if (!owner) e.deliveryId = null;
  }
}

async function store(
  rt: TRuntime,
  provider: TWebhookProvider,
  brandId: string,
  v: TVerified,
): Promise<Omit<TWebhookResult, 'confirmed'>> {
  return withTenant(rt.database.db, { scopeAll: false, brandId }, async (tx) => {
    if (v.replayKey) {
      const [seen] = await selectRows<{ one: number }>(
        tx,
        sql`select 1 as one from relay_webhook_events where brand_id = ${brandId}::uuid and provider = ${provider} and replay_key = ${v.replayKey}`,
      );
      if (seen) throw new WebhookRefusal('replay');
    }
    const stored = await selectRows<{ event_id: string }>(
      tx,
      sql`insert into relay_webhook_events (brand_id, provider, event_id, replay_key, delivery_id, kind, raw)
        select ${brandId}::uuid, ${provider}, v.event_id, v.replay_key, v.delivery_id, v.kind, v.raw
        from unnest(${sql.param(v.events.map((e) => e.eventId.slice(0, 500)))}::text[],
          ${sql.param(v.events.map((_, i) => (i === 0 ? v.replayKey : null)))}::text[],
          ${sql.param(v.events.map((e) => e.deliveryId))}::uuid[],
          ${sql.param(v.events.map((e) => (e.deliveryId ? (e.feedback?.kind ?? null) : null)))}::text[],
          ${sql.param(v.events.map((e) => JSON.stringify(e.raw)))}::jsonb[])
          as v(event_id, replay_key, delivery_id, kind, raw)
        on conflict do nothing
        returning event_id`,
    );
    const fresh = new Set(stored.map((r) => r.event_id));
    const taken = new Set<string>();
    const feedback: TFeedback[] = [];
    for (const e of v.events) {
      const id = e.eventId.slice(0, 500);
      if (!fresh.has(id) || taken.has(id)) continue;
      taken.add(id);
      if (!e.deliveryId || !e.feedback) continue;
      feedback.push({
        deliveryId: e.deliveryId,
        kind: e.feedback.kind,
        source: 'webhook',
        status: e.feedback.status,
        diagnostic: e.feedback.diagnostic,
        sendingDomain: e.sendingDomain ?? null,
        raw: Buffer.from(JSON.stringify(e.raw), 'utf8'),
      });
    }
    if (feedback.length) await applyFeedback(tx, feedback);
    return {
      received: v.events.length + v.unreadable,
      applied: feedback.length,
      duplicates: v.events.length - taken.size,
      ignored: taken.size - feedback.length + v.unreadable,
    };
  });
}

export async function receiveWebhook(rt: TRuntime, request: TWebhookRequest): Promise<TWebhookResult> {
  const provider = isProvider(request.provider) ? request.provider : null;
  const label = provider ?? 'unknown';
  try {
    if (!provider) throw new WebhookRefusal('unknown');
    const hook = await hookOf(rt, provider, request.hookId);
    const v = await verified(rt, provider, hook, request);
    if (v.confirmed) {
      countFeedbackWebhook(label, 'confirmed');
      return { received: 0, applied: 0, duplicates: 0, ignored: 0, confirmed: true };
    }
    await matchDeliveries(rt, hook.brandId, v.events);
    const result =
      v.events.length || v.unreadable
        ? await store(rt, provider, hook.brandId, v)
        : { received: 0, applied: 0, duplicates: 0, ignored: 0 };
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

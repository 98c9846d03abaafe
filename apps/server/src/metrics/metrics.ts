import client from 'prom-client';
import type { TRuntime } from '../runtime.ts';
import { scenarioNow } from '../modules/scenarios/clock.ts';

/**
 * The product's metrics, in Prometheus text (prom-client), served by the operations listener
 * (ops/ops-server.ts) of every process. Two kinds:
 *
 * - what this process saw, counted as it happens: HTTP latency by route, campaign sends by
 *   outcome, SMTP answer time, lease takeovers, and Node's own process metrics;
 * - what the database holds, read at scrape time: deliveries queued and in flight per campaign,
 *   pg-boss queue depths, live worker leases, journey steps overdue. Every process reports the
 *   same values for these (take `max` across instances, not `sum`).
 *
 * Labels carry route patterns, outcomes, queue names and campaign ids: never an address, a token
 * or anything of a guest.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const httpDuration = new client.Histogram({
  name: 'yado_http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status code, and how long they took.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const sends = new client.Counter({
  name: 'yado_campaign_sends_total',
  help: 'Campaign messages handed to SMTP, by outcome: sent, deferred (4xx, tried again later), bounced (a hard bounce by the deliverability rules), failed (another 5xx, retries used up, or not built).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const sendCommits = new client.Counter({
  name: 'yado_campaign_send_commits_total',
  help: "The send's group commits (answers recorded, next mails checked and marked handed), by path: pipelined (one round trip: every answer a 2xx or a retry, every next mail still mailable, the campaign still sending), stepwise (a statement at a time: anything else, such as a bounce, a lost answer, an unsubscribe or a pause since the claim).",
  labelNames: ['path'] as const,
  registers: [registry],
});

const smtpAnswer = new client.Histogram({
  name: 'yado_smtp_answer_seconds',
  help: "Time from handing a campaign message to SMTP to the relay's answer, by answer class (2xx, 4xx, 5xx, none: no answer).",
  labelNames: ['answer'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

const feedbackMessages = new client.Counter({
  name: 'yado_feedback_messages_total',
  help: 'Mail offered to the feedback receiver (bounces, complaints), by outcome: applied, duplicate (already recorded), unparsed (kept), refused_token (not a return path we signed), refused_brand (a delivery of another brand), too_large, error.',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** One message (or refused recipient) at the feedback receiver, by outcome. */
export function countFeedback(outcome: string): void {
  feedbackMessages.inc({ outcome });
}

const feedbackWebhooks = new client.Counter({
  name: 'yado_feedback_webhook_events_total',
  help: "Relay webhook events (SES through SNS, SendGrid, Mailgun, Postmark; issue 25), by provider and outcome: applied, duplicate (that event id already taken), ignored (of no interest, or naming no delivery of ours), confirmed (an SNS subscription), and the refusals refused_signature, refused_old (timestamp outside the window), refused_replay (a signature token seen before), refused_certificate (a certificate or subscription URL off the SNS host), refused_topic, refused_brand (a delivery of another brand), refused_unknown (no such webhook), refused_body (not the provider's format, or too large).",
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});

/** One relay webhook event (or refused request) by provider and outcome. */
export function countFeedbackWebhook(provider: string, outcome: string, n = 1): void {
  if (n > 0) feedbackWebhooks.inc({ provider, outcome }, n);
}

const takeovers = new client.Counter({
  name: 'yado_lease_takeovers_total',
  help: 'Jobs of a stopped worker that this process put back (requeued) or failed for good (failed).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

const databaseUp = new client.Gauge({
  name: 'yado_database_up',
  help: '1 when the scrape could read the database-held metrics below, 0 when PostgreSQL did not answer.',
  registers: [registry],
});

const campaignDeliveries = new client.Gauge({
  name: 'yado_campaign_deliveries',
  help: 'Deliveries of campaigns being sent, by campaign and state: queued, deferred (waiting to be tried again), in_flight (handed to SMTP, answer not recorded).',
  labelNames: ['campaign', 'state'] as const,
  registers: [registry],
});

const queueJobs = new client.Gauge({
  name: 'yado_queue_jobs',
  help: 'pg-boss jobs by queue and state: created (waiting), retry (waiting to be tried again), active (running).',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});

const liveLeases = new client.Gauge({
  name: 'yado_worker_leases',
  help: 'Worker processes holding a live job lease.',
  registers: [registry],
});

const journeysOverdue = new client.Gauge({
  name: 'yado_journey_steps_overdue',
  help: 'Journey steps due more than a minute ago (by the scenario clock) and not yet taken up.',
  registers: [registry],
});

/** A journey step this long past its due time counts as overdue (a tick takes them up every few seconds). */
export const OVERDUE_AFTER_SECONDS = 60;

/** Called once per response: the route's pattern (never the address, which may hold a token). */
export function observeHttp(method: string, route: string | undefined, status: number, seconds: number): void {
  httpDuration.observe({ method, route: route ?? 'unmatched', status: String(status) }, seconds);
}

/** The outcomes of SMTP hand-overs, as send-campaign.ts records them. */
export function countSends(outcomes: readonly { status: string; hardBounce?: boolean }[]): void {
  for (const o of outcomes) sends.inc({ outcome: o.hardBounce ? 'bounced' : o.status });
}

/** One group commit of a send, by the path it took (send-campaign.ts, SendLog). */
export function countSendCommit(path: 'pipelined' | 'stepwise'): void {
  sendCommits.inc({ path });
}

/** Runs one SMTP hand-over and records how long the relay took to answer, and what class of answer. */
export async function timeSmtp<T>(send: () => Promise<T>): Promise<T> {
  const end = smtpAnswer.startTimer();
  try {
    const result = await send();
    end({ answer: '2xx' });
    return result;
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    end({ answer: code === undefined ? 'none' : `${String(code).charAt(0)}xx` });
    throw error;
  }
}

export function countTakeover(outcome: 'requeued' | 'failed'): void {
  takeovers.inc({ outcome });
}

async function readDatabase(rt: TRuntime): Promise<void> {
  const sql = (text: string, values?: unknown[]) => rt.database.executeSql(text, values);
  const deliveries = await sql(
    `select d.campaign_id::text as campaign,
       case d.status when 'sending' then 'in_flight' else d.status end as state, count(*)::int as n
     from campaigns c join deliveries d on d.campaign_id = c.id
     where c.status = 'pending' and d.status in ('queued', 'deferred', 'sending')
     group by 1, 2`,
  );
  const jobs = await sql(
    `select name as queue, state::text as state, count(*)::int as n from pgboss.job
     where state in ('created', 'retry', 'active') group by 1, 2`,
  );
  const leases = await sql('select count(*)::int as n from worker_leases where expires_at > now()');
  const now = await scenarioNow(rt);
  const overdue = await sql(
    `select count(*)::int as n from journeys
     where state = 'waiting' and due_at < $1::timestamptz - make_interval(secs => $2)`,
    [now.toISOString(), OVERDUE_AFTER_SECONDS],
  );
  campaignDeliveries.reset();
  for (const r of deliveries.rows as { campaign: string; state: string; n: number }[])
    campaignDeliveries.set({ campaign: r.campaign, state: r.state }, r.n);
  queueJobs.reset();
  for (const r of jobs.rows as { queue: string; state: string; n: number }[])
    queueJobs.set({ queue: r.queue, state: r.state }, r.n);
  liveLeases.set((leases.rows[0] as { n: number }).n);
  journeysOverdue.set((overdue.rows[0] as { n: number }).n);
}

/** The scrape: reads what the database holds, then answers every metric in Prometheus text. */
export async function scrape(rt: TRuntime): Promise<string> {
  try {
    await readDatabase(rt);
    databaseUp.set(1);
  } catch (error) {
    databaseUp.set(0);
    // Nothing stale: a gauge the database did not confirm is left out rather than repeated.
    campaignDeliveries.reset();
    queueJobs.reset();
    liveLeases.reset();
    journeysOverdue.reset();
    rt.log.warn({ err: error }, 'metrics: the database-held metrics could not be read');
  }
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;

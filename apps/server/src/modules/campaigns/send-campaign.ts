import { randomUUID } from 'node:crypto';
import { SENDING_DEFAULTS, senderDomainOf, type TTemplateContents } from '@yado/contracts';
import type Mail from 'nodemailer/lib/mailer';
import { sql, type SQL } from 'drizzle-orm';
import {
  isConflict,
  retryingConflicts,
  sqlStateOf,
  statementOf,
  withTenant,
  writeInTenant,
  type TTx,
} from '../../db/client.ts';
import { QUEUES } from '../../jobs/queue.ts';
import type { TRuntime } from '../../runtime.ts';
import { dkimOptionsForSender, resolveSendingIdentity, type TSendingIdentity } from '../sending/email-settings.ts';
import {
  compiledTemplate,
  guestLanguage,
  imageUrlResolver,
  personalise,
  personalValues,
  chooseLanguage,
  type TCompiledMessage,
  type TVersionedTemplate,
} from '../templates/render-template.ts';
import { trackingFor } from '../tracking/links.ts';
import { deliveryOutcomeQueries, recordDeliveryOutcomes, type TDeliveryOutcome } from '../tracking/rollups.ts';
import { protectCampaigns } from '../deliverability/apply-feedback.ts';
import { createLogoStore } from '../uploads/logo-store.ts';
import { audienceSql, snapshotAudience } from './audience.ts';
import { experimentShapeOf } from '../experiments/experiment-state.ts';
import { advanceExperiments } from '../experiments/decide.ts';
import { releaseUses } from './campaign-uses.ts';
import { campaignTemplate, composeMessage, signingKey, type TSigningKey } from './compose-message.ts';
import { signedRaw } from './dkim-sign.ts';
import { DomainRate } from './domain-rate.ts';
import { campaignRowById, type TCampaignRow } from './queries.ts';
import { quietHold, type TQuietHours } from './schedule-time.ts';
import {
  brandNameOf,
  campaignsToDispatch,
  claimBatch,
  finishIfDone,
  hotelQuietHours,
  lockCampaign,
  markFailed,
  markStarted,
  handQueries,
  handSend,
  putBackLapsed,
  recordOutcomes,
  recordOutcomesQuery,
  releaseUnhanded,
  setProblem,
  skippedAtStart,
  templateForSend,
  type TClaim,
  type TClaimed,
  type TOutcome,
} from './send-queries.ts';
import { countSendCommit, countSends, timeSmtp } from '../../metrics/metrics.ts';
import { BODY_PROBE, bodyWentOut, type TBodyProbe } from '../../mail/transport.ts';
import { classifyAnswer } from '../deliverability/classify.ts';
import { returnPathFor, sendingDomainOfReturnPath } from '../deliverability/verp.ts';
import { MAIL_NOT_BUILT } from './delivery-error.ts';

/**
 * The send workflow (DESIGN section 7), on pg-boss under job leases:
 *
 * 1. The dispatcher (at worker start and every CAMPAIGN_DISPATCH_SECONDS) queues a start job for
 *    each scheduled campaign whose time has come, and a send job for each campaign that is sending.
 *    Both queues are "stately" with the campaign as key, so however often it runs there is at most
 *    one waiting job per campaign; a restart after downtime finds due campaigns at once.
 * 2. Start: in one transaction, one INSERT ... SELECT of the audience into deliveries, the audience
 *    count, and the campaign to pending. Killed before the commit, it starts again from nothing.
 * 3. Send: first puts back what workers whose lease lapsed left in flight (never by claim age: a
 *    slow but live worker keeps its claims). Then CAMPAIGN_SEND_LANES loops each claim a batch
 *    (FOR UPDATE SKIP LOCKED; consent checked; reserved for this worker's lease under a claim
 *    token), build its mails and pace them per recipient domain, and as many slots as the SMTP pool
 *    has connections hand them over one by one. A slot's step is one group commit (`SendLog`, every
 *    few milliseconds or few dozen): the answer of its last message, and the next message's consent
 *    check and "handed" mark. So a delivery is recorded as the relay answers it, and a crash repeats
 *    at most the messages in an SMTP conversation, at most one per pool connection. A put-back
 *    message that was handed goes again once, marked as a possible repeat, never a third time. A
 *    4xx (the only thing counted as an attempt, with its back-off) is retried after a doubling
 *    back-off, taken up by the dispatcher when due; a timeout is "unknown" and goes again once; a
 *    5xx fails the delivery, classified by the deliverability rules (a hard bounce suppresses the
 *    address; deliverability/classify.ts). When sent + skipped + failed equals the
 *    audience the campaign is sent.
 * 4. A stopping worker (SIGTERM) claims nothing more, finishes what is in SMTP, puts the rest of
 *    its claims back and queues the send again, so another worker goes on at once.
 *
 * Quiet hours are the hotel's: a delivery whose hotel (its allocation) is inside its quiet hours,
 * in the hotel's own time zone, is not claimed until they end; the others go. A delivery without
 * a hotel follows the campaign host's. The send job ends when nothing is claimable now, and the
 * dispatcher takes the campaign up again at its next look.
 */

export interface TCampaignJob {
  campaignId: string;
  brandId: string;
}

const asBrand = <T>(rt: TRuntime, brandId: string, fn: (tx: TTx) => Promise<T>) =>
  withTenant(rt.database.db, { scopeAll: false, brandId }, fn);

/** Queues what is due. Cheap when nothing is: one indexed read. */
export async function dispatchCampaigns(rt: TRuntime): Promise<void> {
  // A/B tests whose wait ended are decided first, so their rest goes in this round (issue 26). A
  // decision that fails is logged and tried again at the next look; it never holds the sends back.
  await advanceExperiments(rt).catch((error: unknown) => rt.log.warn({ err: error }, 'experiment decisions failed'));
  const rows = await withTenant(rt.database.db, { scopeAll: true, brandId: null }, (tx) => campaignsToDispatch(tx));
  for (const row of rows) {
    const job: TCampaignJob = { campaignId: row.id, brandId: row.brand_id };
    await rt.queue.send(row.status === 'scheduled' ? QUEUES.campaignStart : QUEUES.campaignSend, job, {
      singletonKey: row.id,
    });
  }
}

/** Snapshot of the audience and the move to pending; then the first send job. */
export async function startCampaign(rt: TRuntime, job: TCampaignJob): Promise<void> {
  const campaign = await asBrand(rt, job.brandId, (tx) => campaignRowById(tx, job.campaignId));
  if (!campaign || campaign.status !== 'scheduled') return;
  const resolution = await resolveSendingIdentity(rt, campaign.host_id);
  if (!resolution.ok) {
    // The campaign waits and says why (a sender domain that lost verification, say).
    await asBrand(rt, job.brandId, (tx) =>
      setProblem(tx, campaign.id, resolution.problems[0] ?? 'sending_settings_missing'),
    );
    return;
  }
  const started = await asBrand(rt, job.brandId, async (tx) => {
    if ((await lockCampaign(tx, campaign.id)) !== 'scheduled') return false;
    if (!campaign.template_id || !(await templateForSend(tx, campaign.template_id))) {
      await markFailed(tx, campaign.id, 'campaign_template_deleted');
      await releaseUses(tx, campaign.id, 'failed');
      return false;
    }
    let audience;
    try {
      audience = await audienceSql(
        tx,
        { brandId: campaign.brand_id, hostId: campaign.host_id, hostLevel: campaign.host_level },
        campaign.segment_ids ?? [],
        campaign.exclude_segment_ids ?? [],
      );
    } catch {
      await markFailed(tx, campaign.id, 'campaign_segment_deleted');
      await releaseUses(tx, campaign.id, 'failed');
      return false;
    }
    // Issue 26: each guest's arm and variant are assigned and stored in the snapshot's statement.
    const size = await snapshotAudience(
      tx,
      campaign.id,
      audience,
      resolution.identity.frequencyCap,
      undefined,
      experimentShapeOf(campaign),
    );
    await markStarted(tx, campaign.id, size);
    const capped = await skippedAtStart(tx, campaign.id);
    await recordDeliveryOutcomes(
      tx,
      capped.map((d) => outcomeOf(campaign, d.id, d.hotel_id, 'skipped')),
    );
    return true;
  });
  if (started) await rt.queue.send(QUEUES.campaignSend, job, { singletonKey: job.campaignId });
}

const outcomeOf = (
  campaign: TCampaignRow,
  deliveryId: string,
  hotelId: string | null,
  outcome: TDeliveryOutcome['outcome'],
): TDeliveryOutcome => ({
  deliveryId,
  campaignId: campaign.id,
  brandId: campaign.brand_id,
  hotelId,
  outcome,
});

interface TSendContext {
  campaign: TCampaignRow;
  identity: TSendingIdentity;
  from: { name: string; address: string };
  dkim: TSigningKey;
  brandName: string;
  /** The template with the campaign's subject and pre-header (compose-message.ts, campaignTemplate). */
  template: TVersionedTemplate;
  /**
   * Issue 26: what each variant mails (0 = A: `template` and the sender's name; B..D: their own
   * subject, pre-header, template and sender name, each falling back to A's).
   */
  variants: { template: TVersionedTemplate; fromName: string }[];
  /** Compiled per variant and language (`variant:language`). */
  compiled: Map<string, Promise<TCompiledMessage>>;
  imageUrl: (src: string) => string;
  /** Quiet hours of each hotel the campaign's remaining deliveries belong to, in its own time zone. */
  hotelQuiet: Map<string, TQuietHours>;
  /** Set when a lane failed: the others stop after the batch they hold. */
  stopped: boolean;
  /** The refresh of the holds under way (one for all lanes). */
  refreshing: Promise<boolean> | null;
}

const rates = new WeakMap<TRuntime, DomainRate>();
const rateOf = (rt: TRuntime) => {
  let rate = rates.get(rt);
  if (!rate) {
    rate = new DomainRate(rt.database, rt.config.campaigns.domainRate);
    rates.set(rt, rate);
  }
  return rate;
};

/** Most messages built and paced together. */
const CHUNK = 50;

/**
 * Messages of a chunk: with a per-domain rate, no more than a tenth of a second of it, since a
 * chunk waits for all its slots before it goes (receivers throttle bursts, not averages).
 */
const chunkSize = (rt: TRuntime) =>
  rt.config.campaigns.domainRate > 0
    ? Math.max(1, Math.min(CHUNK, Math.floor(rt.config.campaigns.domainRate / 10)))
    : CHUNK;

/** Messages in an SMTP conversation at once: the pool's connections (nodemailer's default is 5). */
const poolSize = (rt: TRuntime) =>
  Math.max(1, (rt.mailer.options as { maxConnections?: number } | undefined)?.maxConnections ?? 5);

/** How the send job runs: the worker's lease (jobs/leases.ts) and its stop signal. */
export interface TSendRun {
  workerId: string;
  signal?: AbortSignal;
}

/** Without a lease (a direct call): a claim of its own, which nothing else takes for a live worker's. */
const unleased = (): TSendRun => ({ workerId: randomUUID() });

/**
 * Sends a campaign's due deliveries until none is due now (or the worker stops, or the campaign is
 * paused). `lanes` loops claim, build and pace; `poolSize` slots hand the mails to SMTP one by one,
 * each answer recorded (group-committed) before its slot's next mail goes.
 */
export async function sendCampaign(rt: TRuntime, job: TCampaignJob, run: TSendRun = unleased()): Promise<void> {
  const prepared = await prepareSend(rt, job);
  if (!prepared) return;
  const { campaign } = prepared;
  // The deliverability view per sending domain counts what is handed to the relay from it.
  const sendingDomain = senderDomainOf(prepared.from.address) ?? domainOf(prepared.from.address);
  await putBackLapsedClaims(rt, campaign, sendingDomain, run.workerId);
  const claim: TClaim = { workerId: run.workerId, token: randomUUID() };
  const log = new SendLog(rt, campaign, claim.token, sendingDomain);
  const ready = new ReadyMails(poolSize(rt) * 2);
  const stopping = () => prepared.stopped || (run.signal?.aborted ?? false);
  let failure: unknown = null;
  const fail = (error: unknown) => {
    failure ??= error;
    prepared.stopped = true;
    ready.close();
  };
  const lanes = Promise.all(
    Array.from({ length: rt.config.campaigns.lanes }, () =>
      claimLane(rt, prepared, claim, log, ready, stopping).catch(fail),
    ),
  ).then(() => ready.close());
  const slots = Promise.all(
    Array.from({ length: poolSize(rt) }, () => sendSlot(rt, log, ready, stopping).catch(fail)),
  ).then(() => ready.close()); // slots done (a stop): a lane waiting to hand a mail over ends too
  await Promise.all([lanes, slots]);
  // What was claimed and not handed over (a stop, a failure, a pause) goes back as it was.
  await asBrand(rt, job.brandId, (tx) => releaseUnhanded(tx, claim.token));
  if (failure) throw failure;
  if (run.signal?.aborted) {
    // Stopped by SIGTERM: another worker goes on as soon as this job is over.
    await rt.queue.send(QUEUES.campaignSend, job, { singletonKey: job.campaignId });
    return;
  }
  await asBrand(rt, job.brandId, async (tx) => {
    if (await finishIfDone(tx, campaign.id)) await releaseUses(tx, campaign.id, 'sent');
  });
}

/**
 * Puts back the deliveries left in flight by workers whose lease lapsed, and by this worker's own
 * earlier run of this campaign (one that failed before it could record an answer: only one run of
 * a campaign is active at a time, so nothing else would put them back while this worker lives)
 * (`putBackLapsed`); those that count as sent there (lost twice) enter the statistics in the same
 * transaction.
 */
async function putBackLapsedClaims(
  rt: TRuntime,
  campaign: TCampaignRow,
  sendingDomain: string,
  workerId: string,
): Promise<void> {
  // The leases are the owner's table: read first, then the put-back runs under the brand.
  const { rows } = await rt.database.executeSql('select id from worker_leases where expires_at > now()');
  const live = (rows as { id: string }[]).map((r) => r.id);
  await asBrand(rt, campaign.brand_id, async (tx) => {
    const back = await putBackLapsed(tx, campaign.id, live, workerId);
    await recordDeliveryOutcomes(
      tx,
      back
        .filter((r) => r.status === 'sent')
        .map((r) => ({ ...outcomeOf(campaign, r.id, r.hotel_id, 'sent'), sendingDomain })),
    );
  });
}

/** One lane: claim a batch, build and pace it chunk by chunk, hand the mails to the slots. */
async function claimLane(
  rt: TRuntime,
  s: TSendContext,
  claim: TClaim,
  log: SendLog,
  ready: ReadyMails,
  stopping: () => boolean,
): Promise<void> {
  const { campaign } = s;
  while (!stopping()) {
    // Settings that hold a send (quiet hours, the frequency cap, a lapsed domain) are read again for each claim.
    if (!(await refreshHolds(rt, s))) return;
    // The claim and the statistics of what it skipped commit together.
    const batch = await asBrand(rt, campaign.brand_id, async (tx) => {
      const claimed = await claimBatch(
        tx,
        campaign.id,
        rt.config.campaigns.batchSize,
        quietHold(s.hotelQuiet, s.identity.quietHours, new Date()),
        claim,
        s.identity.frequencyCap,
      );
      await recordDeliveryOutcomes(
        tx,
        claimed.filter((d) => d.status === 'skipped').map((d) => outcomeOf(campaign, d.id, d.hotel_id, 'skipped')),
      );
      return claimed;
    });
    if (batch.length === 0) return;
    const toSend = batch.filter((d) => d.status === 'sending');
    const size = chunkSize(rt);
    for (let i = 0; i < toSend.length && !stopping(); i += size) {
      const chunk = toSend.slice(i, i + size);
      // Built together: their DKIM signatures are made in the thread pool at the same time.
      const built = await Promise.allSettled(chunk.map((d) => buildMail(rt, s, d)));
      const mails: TReadyMail[] = [];
      for (const [j, result] of built.entries()) {
        const d = chunk[j] as TClaimed;
        if (result.status === 'fulfilled') {
          mails.push({ d, mail: result.value });
          continue;
        }
        // A mail that cannot even be built (not an SMTP answer) fails alone. Only the error's kind:
        // its message could quote the recipient.
        rt.log.error(
          { error: (result.reason as Error).name, campaignId: campaign.id, deliveryId: d.id },
          'campaign mail could not be built',
        );
        void log.commit({ outcome: failedToBuild(d), d }).catch(() => undefined);
      }
      await rateOf(rt).pace(mails.map(({ d }) => domainOf(d.email as string)));
      for (const m of mails) if (!(await ready.push(m))) return;
    }
  }
}

const failedToBuild = (d: TClaimed): TOutcome => ({
  id: d.id,
  customerId: d.customer_id,
  status: 'failed',
  messageId: null,
  error: MAIL_NOT_BUILT,
  nextAttemptAt: null,
  hardBounce: false,
});

/**
 * One SMTP slot: each step commits the previous mail's answer together with the next mail's
 * consent check and "handed" mark, then hands that mail over. So at most one mail per slot is
 * ever between "handed" and "answer recorded".
 */
async function sendSlot(rt: TRuntime, log: SendLog, ready: ReadyMails, stopping: () => boolean): Promise<void> {
  let answer: TAnswer | undefined;
  for (;;) {
    const next = stopping() ? null : await ready.take();
    const verdict = await log.commit(answer, next?.d);
    answer = undefined;
    if (!next) return;
    if (verdict === 'go') answer = { outcome: await deliver(rt, next.d, next.mail), d: next.d };
  }
}

/** A relay's answer, with the delivery it answers. */
interface TAnswer {
  outcome: TOutcome;
  d: TClaimed;
}

interface TReadyMail {
  d: TClaimed;
  mail: Mail.Options;
}

/** Built mails between the lanes and the slots; `capacity` keeps the lanes only a little ahead. */
class ReadyMails {
  private readonly items: TReadyMail[] = [];
  private takers: ((m: TReadyMail | null) => void)[] = [];
  private pushers: ((open: boolean) => void)[] = [];
  private closed = false;

  constructor(private readonly capacity: number) {}

  /** False once closed (the mail stays claimed and unhanded: released at the end). */
  async push(mail: TReadyMail): Promise<boolean> {
    while (!this.closed && this.items.length >= this.capacity && this.takers.length === 0)
      if (!(await new Promise<boolean>((r) => this.pushers.push(r)))) return false;
    if (this.closed) return false;
    const taker = this.takers.shift();
    if (taker) taker(mail);
    else this.items.push(mail);
    return true;
  }

  take(): Promise<TReadyMail | null> {
    const item = this.items.shift();
    if (item) {
      this.pushers.shift()?.(true);
      return Promise.resolve(item);
    }
    if (this.closed) return Promise.resolve(null);
    return new Promise((r) => this.takers.push(r));
  }

  close(): void {
    this.closed = true;
    for (const t of this.takers.splice(0)) t(null);
    for (const p of this.pushers.splice(0)) p(false);
  }
}

/** Answers gathered this long at most before they are committed (or as soon as GROUP are waiting). */
const GROUP_MS = 2;
const GROUP = 32;

type TVerdict = 'go' | 'skipped' | 'gone' | null;

/** What a committed step says: each mail's verdict, and which answers were recorded (not fenced off). */
interface TStepResult {
  verdicts: Map<string, TVerdict>;
  recorded: Set<string>;
}

interface TPending {
  answer?: TAnswer;
  hand?: TClaimed;
  done(verdict: TVerdict): void;
  fail(error: unknown): void;
}

/**
 * The send's group commit: answers to record and mails about to be handed, gathered for a few
 * milliseconds (or a few dozen), then written in one transaction (`commitSendStep`). One commit
 * runs at a time; what arrives meanwhile waits for the next.
 */
class SendLog {
  private pending: TPending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly rt: TRuntime,
    private readonly campaign: TCampaignRow,
    private readonly token: string,
    private readonly sendingDomain: string,
  ) {}

  /** Records `answer` and checks and marks `hand`; resolves once committed, with `hand`'s verdict. */
  commit(answer?: TAnswer, hand?: TClaimed): Promise<TVerdict> {
    if (!answer && !hand) return Promise.resolve(null);
    return new Promise((done, fail) => {
      this.pending.push({ answer, hand, done, fail });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running) return;
    if (this.pending.length >= GROUP) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.running = this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      if (!this.running) this.running = this.flush();
    }, GROUP_MS);
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    try {
      const answers = batch.flatMap((p) => (p.answer ? [p.answer] : []));
      const handIds = batch.flatMap((p) => (p.hand ? [p.hand.id] : []));
      let step = await this.quickStep(answers, handIds);
      countSendCommit(step ? 'pipelined' : 'stepwise');
      // A bounce report applied at the same moment may deadlock with this commit (both count
      // bounces, and either may pause the campaign): the loser is run again, whole.
      step ??= await retryingConflicts(
        () =>
          asBrand(this.rt, this.campaign.brand_id, (tx) =>
            commitSendStep(
              tx,
              this.campaign,
              this.token,
              this.sendingDomain,
              answers.map((a) => a.outcome),
              handIds,
            ),
          ),
        { log: this.rt.log, what: 'a send step' },
      );
      const { verdicts, recorded } = step;
      // Counted once committed, and only if recorded (a fenced answer is not): what the metrics say
      // was sent is what the statistics hold.
      countSends(answers.flatMap((a) => (recorded.has(a.outcome.id) ? [a.outcome] : [])));
      for (const p of batch) p.done(p.hand ? (verdicts.get(p.hand.id) ?? 'gone') : null);
    } catch (error) {
      for (const p of batch) p.fail(error);
    } finally {
      this.running = null;
      if (this.pending.length) this.schedule();
    }
  }

  /**
   * The usual step in one round trip: every answer a 2xx or a retry (no final failure to classify,
   * no lost answer), recorded under the claim, and every mail about to go still mailable in a
   * campaign still sending. Its statements (commitSendStep's, for that case) go as one pipeline
   * whose implicit transaction commits at its end, each checking what it expects with
   * `yado_expect`: an answer fenced off, a guest who unsubscribed, a pause, or a deadlock aborts it
   * whole, and null sends the step the careful way (commitSendStep, a statement at a time). The
   * careful way took seven round trips a step: the send's commits, one at a time, bounded its rate.
   */
  private async quickStep(answers: TAnswer[], handIds: string[]): Promise<TStepResult | null> {
    if (answers.some((a) => a.outcome.feedback || !QUICK_ANSWERS.has(a.outcome.status))) return null;
    const { campaign, token } = this;
    const queries: SQL[] = [];
    if (answers.length > 0)
      queries.push(
        sql`with recorded as (${recordOutcomesQuery(
          token,
          answers.map((a) => a.outcome),
        )}) select yado_expect(count(*) = ${answers.length}, 'every answer recorded under its claim') from recorded`,
        ...deliveryOutcomeQueries(
          answers
            .filter((a) => a.outcome.status === 'sent')
            .map((a) => ({ ...outcomeOf(campaign, a.d.id, a.d.hotel_id, 'sent'), sendingDomain: this.sendingDomain })),
        ),
      );
    if (handIds.length > 0) {
      const { lock, hand } = handQueries(campaign.id, token, handIds);
      queries.push(
        lock,
        sql`with handed as (${hand})
          select yado_expect(count(*) filter (where status = 'sending') = ${handIds.length}, 'every mail handed') from handed`,
      );
    }
    const { db } = this.rt.database;
    try {
      await writeInTenant(
        db,
        { scopeAll: false, brandId: campaign.brand_id },
        queries.map((q) => statementOf(db, q)),
      );
    } catch (error) {
      if (sqlStateOf(error) === 'YD001') return null;
      if (isConflict(error)) {
        this.rt.log.warn(
          { sqlState: sqlStateOf(error), what: 'a send step in one round trip' },
          'a transaction met a conflict and is run again',
        );
        return null;
      }
      throw error;
    }
    return {
      verdicts: new Map(handIds.map((id) => [id, 'go'])),
      recorded: new Set(answers.map((a) => a.outcome.id)),
    };
  }
}

/** Answers whose recording quickStep takes: their new status follows from the answer alone. */
const QUICK_ANSWERS = new Set<TOutcome['status']>(['sent', 'deferred', 'retry']);

/**
 * THE place where a send's answers are recorded (delivery rows, bounces, and TRACK's rollups in the
 * same transaction), together with the consent check and "handed" mark of the mails about to go.
 * Answers of a claim that was put back meanwhile are not recorded (the claim token fences them):
 * `recorded` holds the ids of those that were.
 */
async function commitSendStep(
  tx: TTx,
  campaign: TCampaignRow,
  token: string,
  sendingDomain: string,
  answers: TOutcome[],
  handIds: string[],
): Promise<TStepResult> {
  const recorded = await recordOutcomes(tx, token, answers);
  const bounced = new Set(answers.filter((o) => o.hardBounce).map((o) => o.id));
  await recordDeliveryOutcomes(
    tx,
    recorded
      .filter((r) => r.status === 'sent' || r.status === 'failed')
      .map((r) => ({
        ...outcomeOf(campaign, r.id, r.hotel_id, r.status as 'sent' | 'failed'),
        bounce: bounced.has(r.id),
        sendingDomain,
      })),
  );
  // A final failure counted against the guest (a bounce, a block): the campaign may now be past
  // its brand's limits, weighed over the mails the rollups just counted, and before this step's
  // hand-over, which a pause taken here then refuses.
  const recordedIds = new Set(recorded.map((r) => r.id));
  if (answers.some((o) => o.feedback && recordedIds.has(o.id))) await protectCampaigns(tx, [campaign.id]);
  const handed = await handSend(tx, campaign.id, token, handIds);
  const skipped = handed.filter((r) => r.status === 'skipped');
  if (skipped.length)
    await recordDeliveryOutcomes(
      tx,
      skipped.map((r) => outcomeOf(campaign, r.id, r.hotel_id, 'skipped')),
    );
  return {
    verdicts: new Map(handed.map((r) => [r.id, r.status === 'sending' ? 'go' : 'skipped'])),
    recorded: recordedIds,
  };
}

/**
 * Quiet hours and the sending identity again before a claim: a setting changed during the send
 * takes effect at the next claim. False when the send must wait (its domain lapsed, say).
 */
async function refreshHolds(rt: TRuntime, s: TSendContext): Promise<boolean> {
  s.refreshing ??= (async () => {
    const resolution = await resolveSendingIdentity(rt, s.campaign.host_id);
    if (!resolution.ok) {
      await asBrand(rt, s.campaign.brand_id, (tx) =>
        setProblem(tx, s.campaign.id, resolution.problems[0] ?? 'sending_settings_missing'),
      );
      return false;
    }
    s.identity = { ...resolution.identity, from: s.identity.from, dkim: s.identity.dkim };
    const hotels = await asBrand(rt, s.campaign.brand_id, (tx) => hotelQuietHours(tx, s.campaign.id));
    s.hotelQuiet = quietMap(hotels);
    return true;
  })().finally(() => {
    s.refreshing = null;
  });
  return s.refreshing;
}

const quietMap = (rows: { id: string; timezone: string; start: string | null; end: string | null }[]) =>
  new Map<string, TQuietHours>(
    rows.map((h) => [
      h.id,
      {
        start: h.start ?? SENDING_DEFAULTS.quietHoursStart,
        end: h.end ?? SENDING_DEFAULTS.quietHoursEnd,
        timeZone: h.timezone,
      },
    ]),
  );

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

async function prepareSend(rt: TRuntime, job: TCampaignJob): Promise<TSendContext | null> {
  const campaign = await asBrand(rt, job.brandId, (tx) => campaignRowById(tx, job.campaignId));
  if (!campaign || campaign.status !== 'pending' || campaign.paused_at) return null;
  const resolution = await resolveSendingIdentity(rt, campaign.host_id);
  if (!resolution.ok) {
    await asBrand(rt, job.brandId, (tx) =>
      setProblem(tx, campaign.id, resolution.problems[0] ?? 'sending_settings_missing'),
    );
    return null;
  }
  const identity = resolution.identity;
  const address = campaign.sender_email ?? identity.from.address;
  const dkim =
    address.toLowerCase() === identity.from.address.toLowerCase()
      ? identity.dkim
      : await dkimOptionsForSender(rt, campaign.brand_id, address);
  if (!dkim) {
    await asBrand(rt, job.brandId, (tx) => setProblem(tx, campaign.id, 'sender_domain_not_verified'));
    return null;
  }
  const alternatives = campaign.experiment_variants ?? [];
  const found = await asBrand(rt, job.brandId, async (tx) => ({
    template: campaign.template_id ? await templateForSend(tx, campaign.template_id) : null,
    variantTemplates: await Promise.all(
      alternatives.map((v) => (v.templateId ? templateForSend(tx, v.templateId) : Promise.resolve(undefined))),
    ),
    brandName: await brandNameOf(tx, campaign.brand_id),
    hotelQuiet: await hotelQuietHours(tx, campaign.id),
  }));
  if (!found.template || found.variantTemplates.some((t) => t === null)) {
    await asBrand(rt, job.brandId, async (tx) => {
      await markFailed(tx, campaign.id, 'campaign_template_deleted');
      await releaseUses(tx, campaign.id, 'failed');
    });
    return null;
  }
  if (campaign.problem) await asBrand(rt, job.brandId, (tx) => setProblem(tx, campaign.id, null));
  const versioned = (t: NonNullable<typeof found.template>): TVersionedTemplate => ({
    id: t.id,
    version: t.version,
    defaultLanguage: t.default_language,
    contents: t.contents as TTemplateContents,
  });
  const template = campaignTemplate(versioned(found.template), {
    id: campaign.id,
    subject: campaign.subject,
    preHeader: campaign.pre_header,
  });
  const context: TSendContext = {
    campaign,
    identity,
    from: { name: identity.from.name, address },
    dkim: signingKey(dkim),
    brandName: found.brandName,
    template,
    variants: [
      { template, fromName: identity.from.name },
      ...alternatives.map((v, i) => ({
        template: campaignTemplate(versioned(found.variantTemplates[i] ?? found.template!), {
          id: `${campaign.id}:${i + 1}`,
          subject: v.subject || campaign.subject,
          preHeader: v.preHeader || campaign.pre_header,
        }),
        fromName: v.senderName ?? identity.from.name,
      })),
    ],
    compiled: new Map(),
    imageUrl: imageUrlResolver(rt.config, createLogoStore(rt.config)),
    hotelQuiet: quietMap(found.hotelQuiet),
    stopped: false,
    refreshing: null,
  };
  // Rendered once before any claim: a template that cannot be rendered fails the campaign with a
  // reason instead of leaving every claimed delivery in flight.
  try {
    for (const [i, v] of context.variants.entries()) await compiledFor(context, v.template.defaultLanguage, i);
  } catch (error) {
    rt.log.error({ err: error, campaignId: campaign.id }, 'campaign template did not render');
    await asBrand(rt, job.brandId, async (tx) => {
      await markFailed(tx, campaign.id, 'campaign_render_failed');
      await releaseUses(tx, campaign.id, 'failed');
    });
    return null;
  }
  return context;
}

function compiledFor(s: TSendContext, language: 'ja' | 'en', variant = 0): Promise<TCompiledMessage> {
  const template = (s.variants[variant] ?? s.variants[0])!.template;
  const chosen = chooseLanguage(template, language);
  const key = `${variant}:${chosen}`;
  let compiled = s.compiled.get(key);
  if (!compiled) {
    compiled = compiledTemplate(template, chosen, s.imageUrl);
    s.compiled.set(key, compiled);
  }
  return compiled;
}

const MAX_ERROR = 300;

async function buildMail(rt: TRuntime, s: TSendContext, d: TClaimed): Promise<Mail.Options> {
  const to = d.email as string;
  const compiled = await compiledFor(s, guestLanguage(d.country), d.variant);
  const language = compiled.language;
  const message = personalise(
    compiled,
    personalValues(
      { firstName: d.first_name, lastName: d.last_name, email: to, hotelName: d.hotel_name, brandName: s.brandName },
      language,
    ),
  );
  const mail = composeMessage({
    campaignId: s.campaign.id,
    deliveryId: d.id,
    to,
    language,
    message,
    publicUrl: rt.config.publicUrl,
    identity: {
      from: { ...s.from, name: (s.variants[d.variant] ?? s.variants[0])!.fromName },
      replyTo: s.identity.replyTo,
      footer: s.identity.footer,
    },
    dkim: s.dkim,
    tracking: trackingFor(rt, d.id, {
      mailto: s.identity.replyTo ?? s.from.address,
      language,
      customerId: d.customer_id,
    }),
  });
  const signed = await signedRaw(mail);
  // VERP: the envelope's return path names the delivery, so a later bounce or complaint report
  // finds it (deliverability/verp.ts).
  return { ...signed, envelope: { from: returnPathFor(rt, d.id, s.from.address), to: [to] } };
}

async function deliver(rt: TRuntime, d: TClaimed, mail: Mail.Options): Promise<TOutcome> {
  const base = { id: d.id, customerId: d.customer_id, hardBounce: false };
  // Tells, when the relay's answer never comes, whether the body had started to go out (after DATA).
  const probe: TBodyProbe = {};
  try {
    await timeSmtp(() => rt.mailer.sendMail({ ...mail, [BODY_PROBE]: probe } as Mail.Options));
    // The Message-ID composed for the delivery (a raw message's info carries none of its own).
    return { ...base, status: 'sent', messageId: mail.messageId ?? null, error: null, nextAttemptAt: null };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    const errorCode = (error as { code?: string }).code;
    const text =
      `${code ?? errorCode ?? 'error'} ${(error as { response?: string }).response ?? (error as Error).message}`.slice(
        0,
        MAX_ERROR,
      );
    // A final answer of the relay goes through the deliverability rules (hard bounce, soft bounce,
    // policy block: deliverability/classify.ts); only a hard bounce suppresses at once.
    const failed = (): TOutcome => {
      const classified = classifyAnswer({ smtpCode: code, diagnostic: text, final: true });
      const feedback = {
        deliveryId: d.id,
        kind: classified.kind,
        source: 'smtp' as const,
        status: classified.status,
        diagnostic: text,
        sendingDomain: sendingDomainOfReturnPath(mail.envelope),
      };
      return {
        ...base,
        status: 'failed',
        messageId: null,
        error: text,
        nextAttemptAt: null,
        hardBounce: classified.kind === 'hard_bounce',
        feedback,
      };
    };
    if (code !== undefined && code >= 500) return failed();
    // No answer after the body went out (an inactivity timeout after DATA, or the relay closed the
    // connection): the relay may have taken the message. Unknown, never failed: sent again once,
    // marked as a possible repeat (recordOutcomes), and not counted as an attempt. (The pool never
    // re-sends it on its own: mail/transport.ts, maxRequeues 0.)
    if (code === undefined && bodyWentOut(probe) && (errorCode === 'ETIMEDOUT' || errorCode === 'ECONNECTION'))
      return { ...base, status: 'unknown', messageId: null, error: text, nextAttemptAt: null };
    // The connection lost in the middle of a conversation before the body went out: the relay took
    // nothing and said nothing about the guest. Tried again shortly, not counted as an attempt and
    // not marked as a possible repeat.
    if (code === undefined && errorCode === 'ECONNECTION')
      return {
        ...base,
        status: 'retry',
        messageId: null,
        error: text,
        nextAttemptAt: new Date(Date.now() + rt.config.campaigns.retryBaseSeconds * 1000),
      };
    // 4xx, or no answer at all (connection refused or lost): try again later, up to the limit.
    // Only the relay's answers count as attempts (a claim put back after a crash does not).
    const tries = d.attempts + 1;
    if (tries >= rt.config.campaigns.retryLimit) {
      // A relay we could not reach says nothing about the guest's address: no feedback then.
      if (code !== undefined) return failed();
      return { ...base, status: 'failed', messageId: null, error: text, nextAttemptAt: null };
    }
    const delay = rt.config.campaigns.retryBaseSeconds * 2 ** (tries - 1) * 1000;
    return { ...base, status: 'deferred', messageId: null, error: text, nextAttemptAt: new Date(Date.now() + delay) };
  }
}

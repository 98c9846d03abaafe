import { SENDING_DEFAULTS, type TTemplateContents } from '@yado/contracts';
import type Mail from 'nodemailer/lib/mailer';
import { withTenant, type TTx } from '../../db/client.ts';
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
import { recordDeliveryOutcomes, type TDeliveryOutcome } from '../tracking/rollups.ts';
import { createLogoStore } from '../uploads/logo-store.ts';
import { audienceSql, snapshotAudience } from './audience.ts';
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
  recordOutcomes,
  requeueStale,
  setProblem,
  skippedAtStart,
  skipUnmailable,
  templateForSend,
  type TClaimed,
  type TOutcome,
} from './send-queries.ts';
import { countSends, timeSmtp } from '../../metrics/metrics.ts';

/**
 * The send workflow (DESIGN section 7), on pg-boss under job leases:
 *
 * 1. The dispatcher (at worker start and every CAMPAIGN_DISPATCH_SECONDS) queues a start job for
 *    each scheduled campaign whose time has come, and a send job for each campaign that is sending.
 *    Both queues are "stately" with the campaign as key, so however often it runs there is at most
 *    one waiting job per campaign; a restart after downtime finds due campaigns at once.
 * 2. Start: in one transaction, one INSERT ... SELECT of the audience into deliveries, the audience
 *    count, and the campaign to pending. Killed before the commit, it starts again from nothing.
 * 3. Send: claims a batch (FOR UPDATE SKIP LOCKED; consent checked again; marked in flight), sends
 *    it over the pooled SMTP transport in chunks, checking consent once more just before each
 *    chunk, records the answers in one statement, and repeats; CAMPAIGN_SEND_LANES such loops run
 *    at once, so one's database work overlaps another's SMTP traffic. Claims
 *    older than a lease are a dead worker's: put back and counted as in-flight repeats. A 4xx is
 *    retried after a doubling back-off (taken up by the dispatcher when due), a 5xx fails the
 *    delivery and suppresses the address. When sent + skipped + failed equals the audience the
 *    campaign is sent.
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
    const size = await snapshotAudience(tx, campaign.id, audience, resolution.identity.frequencyCap);
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
  compiled: Map<string, Promise<TCompiledMessage>>;
  imageUrl: (src: string) => string;
  /** Quiet hours of each hotel the campaign's remaining deliveries belong to, in its own time zone. */
  hotelQuiet: Map<string, TQuietHours>;
  /** Set when a lane failed: the others stop after the batch they hold. */
  stopped: boolean;
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

/** Most messages handed to SMTP together after one consent check. */
const CHUNK = 50;

/**
 * Messages of a chunk: with a per-domain rate, no more than a tenth of a second of it, since a
 * chunk waits for all its slots before it goes (receivers throttle bursts, not averages).
 */
const chunkSize = (rt: TRuntime) =>
  rt.config.campaigns.domainRate > 0
    ? Math.max(1, Math.min(CHUNK, Math.floor(rt.config.campaigns.domainRate / 10)))
    : CHUNK;

/**
 * Sends a campaign's due deliveries until none is due now. `lanes` loops run at once, each claiming
 * a batch, sending it in chunks and recording it, so one lane's database round trips overlap the
 * others' SMTP traffic. They need no coordination: a claim commits its rows as in flight, so no
 * two lanes (or workers) ever hold the same delivery.
 */
export async function sendCampaign(rt: TRuntime, job: TCampaignJob): Promise<void> {
  const prepared = await prepareSend(rt, job);
  if (!prepared) return;
  const { campaign } = prepared;
  await asBrand(rt, job.brandId, (tx) => requeueStale(tx, campaign.id, rt.config.jobs.leaseSeconds));
  const lanes = await Promise.allSettled(
    Array.from({ length: rt.config.campaigns.lanes }, () =>
      sendLane(rt, prepared).catch((error: unknown) => {
        prepared.stopped = true;
        throw error;
      }),
    ),
  );
  const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failed) throw failed.reason;
  await asBrand(rt, job.brandId, async (tx) => {
    if (await finishIfDone(tx, campaign.id)) await releaseUses(tx, campaign.id, 'sent');
  });
}

async function sendLane(rt: TRuntime, s: TSendContext): Promise<void> {
  const { campaign } = s;
  while (!s.stopped) {
    // The claim and the statistics of what it skipped commit together, as do the answers and theirs.
    const batch = await asBrand(rt, campaign.brand_id, async (tx) => {
      const claimed = await claimBatch(
        tx,
        campaign.id,
        rt.config.campaigns.batchSize,
        quietHold(s.hotelQuiet, s.identity.quietHours, new Date()),
      );
      await recordDeliveryOutcomes(
        tx,
        claimed.filter((d) => d.status === 'skipped').map((d) => outcomeOf(campaign, d.id, d.hotel_id, 'skipped')),
      );
      return claimed;
    });
    if (batch.length === 0) return;
    const toSend = batch.filter((d) => d.status === 'sending');
    const outcomes: TOutcome[] = [];
    const size = chunkSize(rt);
    for (let i = 0; i < toSend.length; i += size) outcomes.push(...(await sendChunk(rt, s, toSend.slice(i, i + size))));
    countSends(outcomes);
    await asBrand(rt, campaign.brand_id, async (tx) => {
      const recorded = await recordOutcomes(tx, outcomes);
      const bounced = new Set(outcomes.filter((o) => o.hardBounce).map((o) => o.id));
      const final = recorded.filter((r) => r.status === 'sent' || r.status === 'failed');
      await recordDeliveryOutcomes(
        tx,
        final.map((r) => ({
          ...outcomeOf(campaign, r.id, r.hotel_id, r.status as 'sent' | 'failed'),
          bounce: bounced.has(r.id),
        })),
      );
    });
  }
}

/**
 * One chunk: built, paced per recipient domain, checked for consent once more (an unsubscribe
 * after the claim holds too: those deliveries become skipped), then handed to SMTP together.
 */
async function sendChunk(rt: TRuntime, s: TSendContext, chunk: TClaimed[]): Promise<TOutcome[]> {
  const outcomes: TOutcome[] = [];
  const ready: { d: TClaimed; mail: Mail.Options }[] = [];
  // Built together: their DKIM signatures are made in the thread pool at the same time.
  const built = await Promise.allSettled(chunk.map((d) => buildMail(rt, s, d)));
  built.forEach((result, i) => {
    const d = chunk[i] as TClaimed;
    if (result.status === 'fulfilled') return void ready.push({ d, mail: result.value });
    // A mail that cannot even be built (not an SMTP answer) fails alone, rather than holding its batch in flight.
    // Only the error's kind: its message could quote the recipient.
    rt.log.error(
      { error: (result.reason as Error).name, campaignId: s.campaign.id, deliveryId: d.id },
      'campaign mail could not be built',
    );
    outcomes.push({
      id: d.id,
      customerId: d.customer_id,
      status: 'failed',
      messageId: null,
      error: 'the mail could not be built',
      nextAttemptAt: null,
      hardBounce: false,
    });
  });
  await rateOf(rt).pace(ready.map(({ d }) => domainOf(d.email as string)));
  const skipped = await asBrand(rt, s.campaign.brand_id, async (tx) => {
    const rows = await skipUnmailable(
      tx,
      ready.map(({ d }) => d.id),
    );
    await recordDeliveryOutcomes(
      tx,
      rows.map((r) => outcomeOf(s.campaign, r.id, r.hotel_id, 'skipped')),
    );
    return new Set(rows.map((r) => r.id));
  });
  const answers = await Promise.all(
    ready.filter(({ d }) => !skipped.has(d.id)).map(({ d, mail }) => deliver(rt, d, mail)),
  );
  return outcomes.concat(answers);
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

async function prepareSend(rt: TRuntime, job: TCampaignJob): Promise<TSendContext | null> {
  const campaign = await asBrand(rt, job.brandId, (tx) => campaignRowById(tx, job.campaignId));
  if (!campaign || campaign.status !== 'pending') return null;
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
  const found = await asBrand(rt, job.brandId, async (tx) => ({
    template: campaign.template_id ? await templateForSend(tx, campaign.template_id) : null,
    brandName: await brandNameOf(tx, campaign.brand_id),
    hotelQuiet: await hotelQuietHours(tx, campaign.id),
  }));
  if (!found.template) {
    await asBrand(rt, job.brandId, async (tx) => {
      await markFailed(tx, campaign.id, 'campaign_template_deleted');
      await releaseUses(tx, campaign.id, 'failed');
    });
    return null;
  }
  if (campaign.problem) await asBrand(rt, job.brandId, (tx) => setProblem(tx, campaign.id, null));
  const t = found.template;
  const context: TSendContext = {
    campaign,
    identity,
    from: { name: identity.from.name, address },
    dkim: signingKey(dkim),
    brandName: found.brandName,
    template: campaignTemplate(
      { id: t.id, version: t.version, defaultLanguage: t.default_language, contents: t.contents as TTemplateContents },
      { id: campaign.id, subject: campaign.subject, preHeader: campaign.pre_header },
    ),
    compiled: new Map(),
    imageUrl: imageUrlResolver(rt.config, createLogoStore(rt.config)),
    hotelQuiet: new Map(
      found.hotelQuiet.map((h) => [
        h.id,
        {
          start: h.start ?? SENDING_DEFAULTS.quietHoursStart,
          end: h.end ?? SENDING_DEFAULTS.quietHoursEnd,
          timeZone: h.timezone,
        },
      ]),
    ),
    stopped: false,
  };
  // Rendered once before any claim: a template that cannot be rendered fails the campaign with a
  // reason instead of leaving every claimed delivery in flight.
  try {
    await compiledFor(context, context.template.defaultLanguage);
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

function compiledFor(s: TSendContext, language: 'ja' | 'en'): Promise<TCompiledMessage> {
  const chosen = chooseLanguage(s.template, language);
  let compiled = s.compiled.get(chosen);
  if (!compiled) {
    compiled = compiledTemplate(s.template, chosen, s.imageUrl);
    s.compiled.set(chosen, compiled);
  }
  return compiled;
}

const MAX_ERROR = 300;

async function buildMail(rt: TRuntime, s: TSendContext, d: TClaimed): Promise<Mail.Options> {
  const to = d.email as string;
  const compiled = await compiledFor(s, guestLanguage(d.country));
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
    identity: { from: s.from, replyTo: s.identity.replyTo, footer: s.identity.footer },
    dkim: s.dkim,
    tracking: trackingFor(rt, d.id, {
      mailto: s.identity.replyTo ?? s.from.address,
      language,
      customerId: d.customer_id,
    }),
  });
  return signedRaw(mail);
}

async function deliver(rt: TRuntime, d: TClaimed, mail: Mail.Options): Promise<TOutcome> {
  const base = { id: d.id, customerId: d.customer_id, hardBounce: false };
  try {
    await timeSmtp(() => rt.mailer.sendMail(mail));
    // The Message-ID composed for the delivery (a raw message's info carries none of its own).
    return { ...base, status: 'sent', messageId: mail.messageId ?? null, error: null, nextAttemptAt: null };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    const text =
      `${code ?? (error as { code?: string }).code ?? 'error'} ${(error as { response?: string }).response ?? (error as Error).message}`.slice(
        0,
        MAX_ERROR,
      );
    if (code !== undefined && code >= 500)
      return { ...base, status: 'failed', messageId: null, error: text, nextAttemptAt: null, hardBounce: true };
    // 4xx, or no answer at all (connection lost): try again later, up to the limit.
    if (d.attempts >= rt.config.campaigns.retryLimit)
      return { ...base, status: 'failed', messageId: null, error: text, nextAttemptAt: null };
    const delay = rt.config.campaigns.retryBaseSeconds * 2 ** (d.attempts - 1) * 1000;
    return { ...base, status: 'deferred', messageId: null, error: text, nextAttemptAt: new Date(Date.now() + delay) };
  }
}

import type { TTemplateContents } from '@yado/contracts';
import { withTenant, type TTx } from '../../db/client.ts';
import { QUEUES } from '../../jobs/queue.ts';
import type { TRuntime } from '../../runtime.ts';
import { dkimOptionsForSender, resolveSendingIdentity, type TSendingIdentity } from '../sending/email-settings.ts';
import type { TDkimOptions } from '../sending/dkim.ts';
import { compiledTemplate, guestLanguage, imageUrlResolver, personalise, personalValues, chooseLanguage, type TCompiledMessage } from '../templates/render-template.ts';
import { trackingFor } from '../tracking/links.ts';
import { recordDeliveryOutcomes, type TDeliveryOutcome } from '../tracking/rollups.ts';
import { createLogoStore } from '../uploads/logo-store.ts';
import { audienceSql, snapshotAudience } from './audience.ts';
import { releaseUses } from './campaign-uses.ts';
import { composeMessage } from './compose-message.ts';
import { DomainRateLimit } from './domain-rate.ts';
import { campaignRowById, type TCampaignRow } from './queries.ts';
import { quietHoursRelease } from './schedule-time.ts';
import {
  brandNameOf,
  campaignsToDispatch,
  claimBatch,
  finishIfDone,
  lockCampaign,
  markFailed,
  markStarted,
  recordOutcomes,
  requeueStale,
  setProblem,
  skippedAtStart,
  templateForSend,
  type TClaimed,
  type TOutcome,
} from './send-queries.ts';

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
 *    it over the pooled SMTP transport, records the answers in one statement, and repeats. Claims
 *    older than a lease are a dead worker's: put back and counted as in-flight repeats. A 4xx is
 *    retried after a doubling back-off (taken up by the dispatcher when due), a 5xx fails the
 *    delivery and suppresses the address. When sent + skipped + failed equals the audience the
 *    campaign is sent.
 *
 * Quiet hours: a start or a batch due between the host's quiet hours waits for their end.
 */

export interface TCampaignJob {
  campaignId: string;
  brandId: string;
}

const asBrand = <T>(rt: TRuntime, brandId: string, fn: (tx: TTx) => Promise<T>) => withTenant(rt.database.db, { scopeAll: false, brandId }, fn);

/** Queues what is due. Cheap when nothing is: one indexed read. */
export async function dispatchCampaigns(rt: TRuntime): Promise<void> {
  const rows = await withTenant(rt.database.db, { scopeAll: true, brandId: null }, (tx) => campaignsToDispatch(tx));
  for (const row of rows) {
    const job: TCampaignJob = { campaignId: row.id, brandId: row.brand_id };
    await rt.queue.send(row.status === 'scheduled' ? QUEUES.campaignStart : QUEUES.campaignSend, job, { singletonKey: row.id });
  }
}

function inQuietHours(identity: TSendingIdentity, now = new Date()): boolean {
  return quietHoursRelease(now, identity.quietHours) !== null;
}

/** Snapshot of the audience and the move to pending; then the first send job. */
export async function startCampaign(rt: TRuntime, job: TCampaignJob): Promise<void> {
  const campaign = await asBrand(rt, job.brandId, (tx) => campaignRowById(tx, job.campaignId));
  if (!campaign || campaign.status !== 'scheduled') return;
  const resolution = await resolveSendingIdentity(rt, campaign.host_id);
  if (!resolution.ok) {
    // The campaign waits and says why (a sender domain that lost verification, say).
    await asBrand(rt, job.brandId, (tx) => setProblem(tx, campaign.id, resolution.problems[0] ?? 'sending_settings_missing'));
    return;
  }
  if (inQuietHours(resolution.identity)) return;
  const started = await asBrand(rt, job.brandId, async (tx) => {
    if ((await lockCampaign(tx, campaign.id)) !== 'scheduled') return false;
    if (!campaign.template_id || !(await templateForSend(tx, campaign.template_id))) {
      await markFailed(tx, campaign.id, 'campaign_template_deleted');
      await releaseUses(tx, campaign.id, 'failed');
      return false;
    }
    let audience;
    try {
      audience = await audienceSql(tx, { brandId: campaign.brand_id, hostId: campaign.host_id, hostLevel: campaign.host_level }, campaign.segment_ids ?? [], campaign.exclude_segment_ids ?? []);
    } catch {
      await markFailed(tx, campaign.id, 'campaign_segment_deleted');
      await releaseUses(tx, campaign.id, 'failed');
      return false;
    }
    const size = await snapshotAudience(tx, campaign.id, audience, resolution.identity.frequencyCap);
    await markStarted(tx, campaign.id, size);
    const capped = await skippedAtStart(tx, campaign.id);
    await recordDeliveryOutcomes(tx, capped.map((d) => outcomeOf(campaign, d.id, d.hotel_id, 'skipped')));
    return true;
  });
  if (started) await rt.queue.send(QUEUES.campaignSend, job, { singletonKey: job.campaignId });
}

const outcomeOf = (campaign: TCampaignRow, deliveryId: string, hotelId: string | null, outcome: TDeliveryOutcome['outcome']): TDeliveryOutcome => ({
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
  dkim: TDkimOptions;
  brandName: string;
  template: { id: string; version: number; defaultLanguage: 'ja' | 'en'; contents: TTemplateContents };
  compiled: Map<string, Promise<TCompiledMessage>>;
  imageUrl: (src: string) => string;
}

const limits = new WeakMap<TRuntime, DomainRateLimit>();
const rateOf = (rt: TRuntime) => {
  let limit = limits.get(rt);
  if (!limit) {
    limit = new DomainRateLimit(rt.config.campaigns.domainRate);
    limits.set(rt, limit);
  }
  return limit;
};

/** Sends a campaign's due deliveries batch by batch until none is due now. */
export async function sendCampaign(rt: TRuntime, job: TCampaignJob): Promise<void> {
  const prepared = await prepareSend(rt, job);
  if (!prepared) return;
  const { campaign } = prepared;
  await asBrand(rt, job.brandId, (tx) => requeueStale(tx, campaign.id, rt.config.jobs.leaseSeconds));
  for (;;) {
    if (inQuietHours(prepared.identity)) return;
    // The claim and the statistics of what it skipped commit together, as do the answers and theirs.
    const batch = await asBrand(rt, job.brandId, async (tx) => {
      const claimed = await claimBatch(tx, campaign.id, rt.config.campaigns.batchSize);
      await recordDeliveryOutcomes(tx, claimed.filter((d) => d.status === 'skipped').map((d) => outcomeOf(campaign, d.id, d.hotel_id, 'skipped')));
      return claimed;
    });
    if (batch.length === 0) break;
    const toSend = batch.filter((d) => d.status === 'sending');
    const outcomes = await Promise.all(
      toSend.map((d) =>
        // A mail that cannot even be built (not an SMTP answer) fails alone, rather than holding its batch in flight.
        sendOne(rt, prepared, d).catch((error: unknown): TOutcome => {
          // Only the error's kind: its message could quote the recipient.
          rt.log.error({ error: (error as Error).name, campaignId: campaign.id, deliveryId: d.id }, 'campaign mail could not be built');
          return { id: d.id, customerId: d.customer_id, status: 'failed', messageId: null, error: 'the mail could not be built', nextAttemptAt: null, hardBounce: false };
        }),
      ),
    );
    await asBrand(rt, job.brandId, async (tx) => {
      const recorded = await recordOutcomes(tx, outcomes);
      const bounced = new Set(outcomes.filter((o) => o.hardBounce).map((o) => o.id));
      const final = recorded.filter((r) => r.status === 'sent' || r.status === 'failed');
      await recordDeliveryOutcomes(tx, final.map((r) => ({ ...outcomeOf(campaign, r.id, r.hotel_id, r.status as 'sent' | 'failed'), bounce: bounced.has(r.id) })));
    });
  }
  await asBrand(rt, job.brandId, async (tx) => {
    if (await finishIfDone(tx, campaign.id)) await releaseUses(tx, campaign.id, 'sent');
  });
}

async function prepareSend(rt: TRuntime, job: TCampaignJob): Promise<TSendContext | null> {
  const campaign = await asBrand(rt, job.brandId, (tx) => campaignRowById(tx, job.campaignId));
  if (!campaign || campaign.status !== 'pending') return null;
  const resolution = await resolveSendingIdentity(rt, campaign.host_id);
  if (!resolution.ok) {
    await asBrand(rt, job.brandId, (tx) => setProblem(tx, campaign.id, resolution.problems[0] ?? 'sending_settings_missing'));
    return null;
  }
  const identity = resolution.identity;
  const address = campaign.sender_email ?? identity.from.address;
  const dkim = address.toLowerCase() === identity.from.address.toLowerCase() ? identity.dkim : await dkimOptionsForSender(rt, campaign.brand_id, address);
  if (!dkim) {
    await asBrand(rt, job.brandId, (tx) => setProblem(tx, campaign.id, 'sender_domain_not_verified'));
    return null;
  }
  const found = await asBrand(rt, job.brandId, async (tx) => ({
    template: campaign.template_id ? await templateForSend(tx, campaign.template_id) : null,
    brandName: await brandNameOf(tx, campaign.brand_id),
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
    dkim,
    brandName: found.brandName,
    template: { id: t.id, version: t.version, defaultLanguage: t.default_language, contents: t.contents as TTemplateContents },
    compiled: new Map(),
    imageUrl: imageUrlResolver(rt.config, createLogoStore(rt.config)),
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

async function sendOne(rt: TRuntime, s: TSendContext, d: TClaimed): Promise<TOutcome> {
  const base = { id: d.id, customerId: d.customer_id, hardBounce: false };
  const to = d.email as string;
  const compiled = await compiledFor(s, guestLanguage(d.country));
  const language = compiled.language;
  const message = personalise(
    compiled,
    personalValues({ firstName: d.first_name, lastName: d.last_name, email: to, hotelName: d.hotel_name, brandName: s.brandName }, language),
  );
  const mail = composeMessage({
    campaignId: s.campaign.id,
    deliveryId: d.id,
    to,
    language,
    subject: s.campaign.subject,
    message,
    publicUrl: rt.config.publicUrl,
    identity: { from: s.from, replyTo: s.identity.replyTo, footer: s.identity.footer },
    dkim: s.dkim,
    tracking: trackingFor(rt, d.id, { mailto: s.identity.replyTo ?? s.from.address, language, customerId: d.customer_id }),
  });
  await rateOf(rt).acquire(to.slice(to.lastIndexOf('@') + 1).toLowerCase());
  try {
    const info = await rt.mailer.sendMail(mail);
    return { ...base, status: 'sent', messageId: info.messageId ?? null, error: null, nextAttemptAt: null };
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    const text = `${code ?? (error as { code?: string }).code ?? 'error'} ${(error as { response?: string }).response ?? (error as Error).message}`.slice(0, MAX_ERROR);
    if (code !== undefined && code >= 500) return { ...base, status: 'failed', messageId: null, error: text, nextAttemptAt: null, hardBounce: true };
    // 4xx, or no answer at all (connection lost): try again later, up to the limit.
    if (d.attempts >= rt.config.campaigns.retryLimit) return { ...base, status: 'failed', messageId: null, error: text, nextAttemptAt: null };
    const delay = rt.config.campaigns.retryBaseSeconds * 2 ** (d.attempts - 1) * 1000;
    return { ...base, status: 'deferred', messageId: null, error: text, nextAttemptAt: new Date(Date.now() + delay) };
  }
}

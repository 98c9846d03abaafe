import {
  RECIPIENT_SKIP_REASONS,
  STAT_COUNTERS,
  fullName,
  protectionWarning,
  ratesOf,
  type TCampaignReport,
  type TRecipientSkipReason,
  type TRecipientFeedbackKind as TFeedbackKind,
  type TStatCounters,
  trackingApi,
} from '@yado/contracts';
import type { z } from 'zod';
import type { TTx } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { inTenant, type TRuntime } from '../../runtime.ts';
import { deliveryErrorFor, relayReplyFor } from '../campaigns/delivery-error.ts';
import { protectionOf } from '../deliverability/protection-settings.ts';
import type { TActingContext } from '../tenancy/acting-context.ts';
import {
  campaignHosts,
  campaignLinks,
  campaignSeries,
  campaignTotals,
  campaignTotalsOfGuests,
  eventsOfDeliveries,
  findCampaignInReach,
  recipientPage,
  type TCampaignRef,
} from './queries.ts';

/**
 * A campaign's report (campaign.view_campaign_report): totals and rates, series, links, hotels and
 * recipients. Everything but the recipient list is read from rollups; the recipient list reads a
 * page of deliveries and each one's own events by its index. A campaign out of reach, or of
 * another brand, is "not found". A campaign of a host above that reached the acting hotel's (or
 * group's) guests is read for those guests only: totals and hotels from the per-hotel rollup, their
 * recipients; the series and the links (rollups of the whole campaign) are empty.
 */

const ZERO = Object.fromEntries(STAT_COUNTERS.map((k) => [k, 0])) as TStatCounters;
const EVENTS_PER_RECIPIENT = 20;

/** A skipped delivery's reason as the console names it; one it does not know is left unnamed. */
const skipReasonOf = (reason: string | null): TRecipientSkipReason | null =>
  (RECIPIENT_SKIP_REASONS as readonly string[]).includes(reason ?? '') ? (reason as TRecipientSkipReason) : null;

async function inReach<T>(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  fn: (campaign: TCampaignRef, tx: TTx) => Promise<T>,
): Promise<T> {
  return inTenant(rt, ctx, async (tx) => {
    const campaign = await findCampaignInReach(tx, ctx, id);
    if (!campaign) throw new AppError(404, 'not_found');
    return fn(campaign, tx);
  });
}

export function readCampaignReport(rt: TRuntime, ctx: TActingContext, id: string): Promise<TCampaignReport> {
  return inReach(rt, ctx, id, async (campaign, tx) => {
    const row = campaign.guestsOnly
      ? await campaignTotalsOfGuests(tx, ctx, campaign.id)
      : await campaignTotals(tx, campaign.id);
    const { updatedAt, ...rest } = row ?? { ...ZERO, updatedAt: null };
    const totals = { ...ZERO, ...rest };
    return {
      campaignId: campaign.id,
      totals,
      unopened: Math.max(0, totals.delivered - totals.uniqueOpens),
      rates: ratesOf(totals),
      updatedAt: updatedAt ? new Date(updatedAt).toISOString() : null,
      // Protection weighs the whole campaign: a host that sees its own guests only is not warned.
      // Nor is a sending campaign protection paused: its page says why it paused, and once an admin
      // resumed it, "it pauses itself at 5%" would no longer be true. A finished one is warned of
      // its rates (the console says so for the next campaign to the same guests).
      warning:
        campaign.guestsOnly || campaign.protectionPaused
          ? null
          : protectionWarning(totals, await protectionOf(tx, campaign.brandId)),
    };
  });
}

const isZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

export function readCampaignSeries(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  query: z.infer<typeof trackingApi.ZSeriesQuery>,
) {
  if (query.timeZone && !isZone(query.timeZone)) throw new AppError(400, 'invalid_time_zone');
  return inReach(rt, ctx, id, async (campaign, tx) => {
    const timeZone = query.timeZone ?? campaign.timezone;
    return {
      interval: query.interval,
      timeZone,
      // The hourly rollup is the whole campaign's: none is shown to a host that sees its own guests only.
      points: campaign.guestsOnly ? [] : await campaignSeries(tx, campaign.id, query.interval, timeZone),
    };
  });
}

export function readCampaignLinks(rt: TRuntime, ctx: TActingContext, id: string) {
  // The per-link rollup is the whole campaign's: none is shown to a host that sees its own guests only.
  return inReach(rt, ctx, id, async (campaign, tx) => ({
    links: campaign.guestsOnly ? [] : await campaignLinks(tx, campaign.id),
  }));
}

export function readCampaignHotels(rt: TRuntime, ctx: TActingContext, id: string) {
  return inReach(rt, ctx, id, async (campaign, tx) => ({
    hotels: await campaignHosts(tx, campaign.id, campaign.guestsOnly ? ctx : null),
  }));
}

const CURSOR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function readRecipients(
  rt: TRuntime,
  ctx: TActingContext,
  id: string,
  query: z.infer<typeof trackingApi.ZRecipientsQuery>,
) {
  // The cursor is the last delivery id of the previous page.
  if (query.cursor && !CURSOR.test(query.cursor)) throw new AppError(400, 'validation_failed');
  return inReach(rt, ctx, id, async (campaign, tx) => {
    const rows = await recipientPage(tx, campaign.id, {
      after: query.cursor ?? null,
      limit: query.limit + 1,
      status: query.status,
      possibleRepeats: query.possibleRepeats,
      feedback: query.feedback,
      guestsOf: campaign.guestsOnly ? ctx : null,
    });
    const page = rows.slice(0, query.limit);
    const events = await eventsOfDeliveries(
      tx,
      page.map((r) => r.deliveryId),
      EVENTS_PER_RECIPIENT,
    );
    const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
    return {
      items: page.map((r) => ({
        deliveryId: r.deliveryId,
        customerId: r.customerId,
        name: fullName(r.firstName, r.lastName),
        email: r.email,
        status: r.status as z.infer<typeof trackingApi.ZRecipient>['status'],
        skipReason: skipReasonOf(r.skipReason),
        sentAt: iso(r.sentAt),
        // A code, or the relay's words with no address but the guest's own (the row shows it already).
        error: deliveryErrorFor(r.error, r.email),
        openedAt: iso(r.openedAt),
        clickedAt: iso(r.clickedAt),
        possibleRepeat: r.possibleRepeat,
        feedback: r.feedbackKind
          ? {
              kind: r.feedbackKind as TFeedbackKind,
              status: r.feedbackStatus,
              diagnostic: relayReplyFor(r.feedbackDiagnostic, r.email),
              at: iso(r.feedbackAt) as string,
            }
          : null,
        events: events
          .filter((e) => e.deliveryId === r.deliveryId)
          .map((e) => ({
            kind: e.kind as z.infer<typeof trackingApi.ZRecipientEvent>['kind'],
            at: iso(e.at) as string,
            url: e.url,
            amount: e.amount,
            source: e.source,
          })),
      })),
      nextCursor: rows.length > query.limit ? (page[page.length - 1]?.deliveryId ?? null) : null,
    };
  });
}

import { SENDING_DEFAULTS, type TUnsubscribePage, type TUnsubscribeSource } from '@yado/contracts';
import { withTenant } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import { guestLanguage } from '../templates/render-template.ts';
import { keysOf, openUnsubscribeToken, type TUnsubscribeToken } from './links.ts';
import {
  findGuestTarget,
  findUnsubscribeTarget,
  recordGuestConsent,
  sentByEvidence,
  setGuestEmailStatus,
  unsubscribedMessageFor,
  type TUnsubscribeTarget,
} from './queries.ts';
import type { TTx } from '../../db/client.ts';
import { applyRollups, recordDeliveryOutcomes } from './rollups.ts';

/**
 * A guest's own unsubscribe, by the List-Unsubscribe one-click POST (RFC 8058) or the public page:
 * no login and no confirmation, brand-wide at once (consent is brand-wide, DESIGN section 4). The
 * token says only which delivery; a replay finds the guest already unsubscribed and changes
 * nothing. Undo re-subscribes only an unsubscribe the guest made this way, so a stale link cannot
 * lift one a hotel or the booking system set.
 */

const SYSTEM = { scopeAll: true, brandId: null } as const;
const GUEST_SOURCES: readonly string[] = ['one_click', 'page'];

/** Every refusal looks the same: a forged, altered or stale link learns nothing. */
const invalid = () => new AppError(404, 'unsubscribe_link_invalid');

function tokenOf(rt: TRuntime, token: string): TUnsubscribeToken {
  const opened = openUnsubscribeToken(keysOf(rt), token);
  if (!opened) throw invalid();
  return opened;
}

/** The delivery's guest; when the delivery is gone (campaign deleted), the guest the token names. */
async function targetOf(tx: TTx, token: TUnsubscribeToken, lock: boolean): Promise<TUnsubscribeTarget> {
  const target =
    (await findUnsubscribeTarget(tx, token.deliveryId, { lock })) ??
    (token.customerId ? await findGuestTarget(tx, token.customerId, { lock }) : null);
  if (!target) throw invalid();
  return target;
}

function pageOf(target: TUnsubscribeTarget, messages: TUnsubscribePage['messages']): TUnsubscribePage {
  const language = target.country
    ? guestLanguage(target.country)
    : (target.defaultLanguage ?? SENDING_DEFAULTS.defaultLanguage);
  return {
    brandName: target.brandName,
    brandLogoUrl: target.brandLogoUrl,
    message: messages[language],
    messages,
    language,
    emailStatus: target.emailStatus,
    canUndo: target.emailStatus === 'unsubscribed' && GUEST_SOURCES.includes(target.unsubscribeReason ?? ''),
  };
}

export async function unsubscribeGuest(
  rt: TRuntime,
  token: string,
  source: TUnsubscribeSource,
  /** When the guest unsubscribed: now, or a past instant for the demo history. */
  at = new Date(),
): Promise<TUnsubscribePage> {
  const opened = tokenOf(rt, token);
  return withTenant(rt.database.db, SYSTEM, async (tx) => {
    const target = await targetOf(tx, opened, true);
    if (target.emailStatus === 'active') {
      await setGuestEmailStatus(tx, target, 'unsubscribed', source, at);
      await recordGuestConsent(tx, target, 'unsubscribe', source, at);
      if (target.campaignId) {
        await applyRollups(tx, [
          {
            campaignId: target.campaignId,
            brandId: target.brandId,
            hostId: target.hotelId ?? target.brandId,
            at,
            counters: { unsubscribes: 1 },
          },
        ]);
      }
      target.emailStatus = 'unsubscribed';
      target.unsubscribeReason = source;
    }
    // The link came in this delivery's mail, so the mail arrived: if its answer was lost in a crash
    // it counts as sent now (what the relay accepted) rather than being skipped at its re-send.
    const arrived = target.deliveryId ? await sentByEvidence(tx, target.deliveryId) : null;
    if (arrived)
      await recordDeliveryOutcomes(tx, [
        {
          deliveryId: arrived.id,
          campaignId: arrived.campaign_id,
          brandId: arrived.brand_id,
          hotelId: arrived.hotel_id,
          outcome: 'sent',
        },
      ]);
    return pageOf(target, await unsubscribedMessageFor(tx, target.campaignHostId));
  });
}

export async function unsubscribePage(rt: TRuntime, token: string): Promise<TUnsubscribePage> {
  const opened = tokenOf(rt, token);
  return withTenant(rt.database.db, SYSTEM, async (tx) => {
    const target = await targetOf(tx, opened, false);
    return pageOf(target, await unsubscribedMessageFor(tx, target.campaignHostId));
  });
}

export async function undoUnsubscribe(rt: TRuntime, token: string): Promise<TUnsubscribePage> {
  const opened = tokenOf(rt, token);
  return withTenant(rt.database.db, SYSTEM, async (tx) => {
    const target = await targetOf(tx, opened, true);
    if (target.emailStatus === 'unsubscribed' && GUEST_SOURCES.includes(target.unsubscribeReason ?? '')) {
      const at = new Date();
      await setGuestEmailStatus(tx, target, 'active', 'page', at);
      await recordGuestConsent(tx, target, 'resubscribe', 'page', at);
      // The campaign's unsubscribe count stays: it counts what guests did, and the undo is its own event.
      target.emailStatus = 'active';
      target.unsubscribeReason = null;
    }
    return pageOf(target, await unsubscribedMessageFor(tx, target.campaignHostId));
  });
}

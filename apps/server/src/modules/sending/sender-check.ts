import type { TTx } from '../../db/client.ts';
import { AppError, fieldError } from '../../http/errors.ts';
import type { TRuntime } from '../../runtime.ts';
import {
  dkimOptionsForSender,
  dkimOptionsForSenderIn,
  resolveSendingIdentity,
  resolveSendingIdentityIn,
  type TSendingIdentity,
  type TSendingResolution,
} from './email-settings.ts';

/** A sender a mail will go out from, and the request field (or graph node) that names it. */
export interface TSenderUse {
  address: string | null;
  field: string;
}

function identityOrRefuse(resolution: TSendingResolution): TSendingIdentity {
  if (!resolution.ok) {
    const first = resolution.problems[0];
    // The specification's message for missing settings; the other reasons by their own codes.
    const code = first === 'domain_not_verified' || first === 'footer_missing' ? first : 'sending_settings_missing';
    throw new AppError(422, code);
  }
  return resolution.identity;
}

/**
 * What a send needs from the sending settings, checked before mail is scheduled (a campaign) or a
 * run starts (a scenario's email steps), so it fails now with the reason rather than at send time:
 * the host's sending identity (422 `sending_settings_missing`, `domain_not_verified`,
 * `footer_missing`), and each sender other than the identity's own on a verified domain of the
 * brand (422 `sender_domain_not_verified`, on the sender's field). With `tx`, inside the caller's
 * transaction (the embedded database has a single connection).
 */
export async function sendableIdentity(
  rt: TRuntime,
  owner: { hostId: string; brandId: string },
  senders: TSenderUse[],
  tx?: TTx,
): Promise<TSendingIdentity> {
  const identity = identityOrRefuse(
    tx ? await resolveSendingIdentityIn(rt, tx, owner.hostId) : await resolveSendingIdentity(rt, owner.hostId),
  );
  for (const { address, field } of senders) {
    if (!address || address.toLowerCase() === identity.from.address.toLowerCase()) continue;
    const dkim = tx
      ? await dkimOptionsForSenderIn(rt, tx, owner.brandId, address)
      : await dkimOptionsForSender(rt, owner.brandId, address);
    if (!dkim)
      throw new AppError(422, 'sender_domain_not_verified', { [field]: fieldError('sender_domain_not_verified') });
  }
  return identity;
}

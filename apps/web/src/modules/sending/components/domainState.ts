import type { TDomainState } from '@yado/contracts/sending';

/** The badge colour of a domain's authentication state (domain authentication, Setup, deliverability). */
export const STATE_COLOR: Record<TDomainState, string> = {
  unverified: 'gray',
  in_verification: 'yellow',
  verified: 'green',
};

import type { TSession } from '../tenancy/queries.ts';

/**
 * The sessions this process has read lately, by user. A route that reads in one round trip
 * (readInTenant) may act on a remembered session before the database confirms it: the same round
 * trip reads the session again, and the answer is used only if that reading is identical to the
 * one acted on (see runtime.ts, readAs). Every other route reads the session afresh.
 */
const remembered = new Map<string, { fingerprint: string; session: TSession }>();
const MOST = 10_000;

export const fingerprintOf = (session: TSession): string => JSON.stringify(session);

export function rememberSession(userId: string, session: TSession): string {
  const fingerprint = fingerprintOf(session);
  remembered.delete(userId);
  // A Map keeps insertion order: past the limit, the session remembered longest ago goes.
  if (remembered.size >= MOST) remembered.delete(remembered.keys().next().value as string);
  remembered.set(userId, { fingerprint, session });
  return fingerprint;
}

export function rememberedSession(userId: string): { fingerprint: string; session: TSession } | undefined {
  return remembered.get(userId);
}

export function forgetSession(userId: string): void {
  remembered.delete(userId);
}

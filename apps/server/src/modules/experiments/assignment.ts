import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';

/**
 * Who gets which variant, and who is held out (issue 26). Decided by a hash of the experiment and
 * the guest, never by a random draw at send time: a crash, a resume or a second worker computes
 * the same answer, and the answer is stored on the delivery when the audience is snapshotted.
 *
 * One uniform number per guest decides everything, in bands: [0, holdout) is held out, then the
 * test share is split evenly among the variants, and the rest waits for the winner.
 */

export interface TExperimentShape {
  /** The campaign (or scenario) id: a different experiment shuffles its guests anew. */
  seed: string;
  /** 0 to 0.2: never mailed by this campaign, compared with the mailed guests. */
  holdoutShare: number;
  /** 0 for no test; else 0.1 to 0.5 of the audience, split among the variants. */
  testShare: number;
  /** 2 to 4 with a test; 1 without. */
  variants: number;
}

export type TArm = { kind: 'holdout' } | { kind: 'test'; variant: number } | { kind: 'rest' };

/** A guest's uniform number in [0, 1): the first 48 bits of SHA-256 over the seed and the guest id. */
export function uniformOf(seed: string, customerId: string): number {
  const digest = createHash('sha256').update(`${seed}:${customerId}`).digest();
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

export function armOf(shape: TExperimentShape, customerId: string): TArm {
  const u = uniformOf(shape.seed, customerId);
  if (u < shape.holdoutShare) return { kind: 'holdout' };
  if (shape.testShare <= 0 || shape.variants < 2) return { kind: 'rest' };
  // The test share is of the whole audience; the band starts after the holdout's.
  const intoTest = (u - shape.holdoutShare) / shape.testShare;
  if (intoTest < 1)
    return { kind: 'test', variant: Math.min(shape.variants - 1, Math.floor(intoTest * shape.variants)) };
  return { kind: 'rest' };
}

/**
 * `uniformOf` in SQL, for the snapshot's INSERT ... SELECT: the first 12 hex digits (48 bits) of
 * the same SHA-256 as a bigint, over 2^48 (exact in a double, as in JavaScript).
 */
export const uniformSql = (seed: SQL, customerId: SQL): SQL =>
  sql`(('x' || substr(encode(sha256(convert_to(${seed} || ':' || ${customerId}::text, 'UTF8')), 'hex'), 1, 12))::bit(48)::bigint::double precision / 281474976710656.0::double precision)`;

/**
 * `armOf` in SQL over a uniform `u`: the arm ('holdout' | 'test' | 'rest', null without a test or
 * holdout) and the variant (0 = A). The same double arithmetic as armOf, so both agree exactly.
 */
export function armSql(shape: TExperimentShape, u: SQL): { arm: SQL; variant: SQL } {
  const h = sql`${shape.holdoutShare}::double precision`;
  const t = sql`${shape.testShare}::double precision`;
  const testing = shape.testShare > 0 && shape.variants >= 2;
  const arm = sql`case when ${u} < ${h} then 'holdout' ${
    testing ? sql`when (${u} - ${h}) / ${t} < 1 then 'test' else 'rest'` : sql`else null`
  } end`;
  const variant = testing
    ? sql`case when ${u} >= ${h} and (${u} - ${h}) / ${t} < 1 then least(${shape.variants - 1}::int, floor((${u} - ${h}) / ${t} * ${shape.variants}::int)::int) else 0 end`
    : sql`0`;
  return { arm, variant };
}

import { createHash } from 'node:crypto';

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

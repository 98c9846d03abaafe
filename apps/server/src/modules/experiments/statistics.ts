/**
 * The statistics of experiments (issue 26): which variant of an A/B test won, and what a holdout
 * says a campaign caused. Pure functions over counts, so the tests hold them against textbook
 * results and simulated A/A tests.
 *
 * A/B: two-proportion z-tests (pooled standard error for the test, unpooled for the interval).
 * With more than two variants the leader must beat every other one, each comparison at
 * alpha / (k - 1) (Bonferroni), so an A/A/A test declares a winner no more often than an A/A one.
 * A variant needs MIN_PER_VARIANT recipients before any winner is named; otherwise the test is
 * "too small" and the control (the first variant) goes to the rest, as when it is inconclusive.
 */

/** The fewest recipients per variant before a winner may be named (the commercial tools advise 500 to 5,000). */
export const MIN_PER_VARIANT = 500;
/** A holdout smaller than this says nothing: the report says so instead of a figure. */
export const MIN_HOLDOUT = 100;
export const DEFAULT_ALPHA = 0.05;

/**
 * The standard normal distribution function, by the complementary error function of W. J. Cody's
 * rational approximations as given in Numerical Recipes (erfc, fractional error below 1.2e-7).
 */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** The z with normalCdf(z) = p (Acklam's rational approximation refined by one Halley step). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError('p must be in (0, 1)');
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

export interface TProportion {
  /** Recipients (or guests) in the group. */
  n: number;
  /** Those who did it (clicked, booked). */
  x: number;
}

export interface TTwoProportionResult {
  rateA: number;
  rateB: number;
  /** rateB - rateA. */
  difference: number;
  /** The interval of the difference at 1 - alpha (unpooled standard error). */
  interval: [number, number];
  z: number;
  /** Two-sided. */
  pValue: number;
}

/** Two-proportion z-test of B against A. */
export function twoProportionTest(a: TProportion, b: TProportion, alpha = DEFAULT_ALPHA): TTwoProportionResult {
  if (a.n <= 0 || b.n <= 0) throw new RangeError('each group needs at least one member');
  const rateA = a.x / a.n;
  const rateB = b.x / b.n;
  const difference = rateB - rateA;
  const pooled = (a.x + b.x) / (a.n + b.n);
  const pooledSe = Math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n));
  const z = pooledSe === 0 ? 0 : difference / pooledSe;
  const pValue = pooledSe === 0 ? 1 : 2 * (1 - normalCdf(Math.abs(z)));
  const se = Math.sqrt((rateA * (1 - rateA)) / a.n + (rateB * (1 - rateB)) / b.n);
  const half = normalQuantile(1 - alpha / 2) * se;
  return { rateA, rateB, difference, interval: [difference - half, difference + half], z, pValue };
}

/** The interval of one proportion at 1 - alpha (Wilson score: sound near 0, where click rates live). */
export function wilsonInterval(p: TProportion, alpha = DEFAULT_ALPHA): [number, number] {
  if (p.n <= 0) return [0, 1];
  const z = normalQuantile(1 - alpha / 2);
  const rate = p.x / p.n;
  const denominator = 1 + (z * z) / p.n;
  const centre = (rate + (z * z) / (2 * p.n)) / denominator;
  const half = (z * Math.sqrt((rate * (1 - rate)) / p.n + (z * z) / (4 * p.n * p.n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export type TWinnerDecision =
  | { kind: 'winner'; winner: number; pValues: number[] }
  | { kind: 'inconclusive'; leader: number; pValues: number[] }
  | { kind: 'too_small'; smallest: number };

/**
 * Picks the winner of an A/B(/C/D) test: the variant with the highest rate, if it beats every other
 * one at alpha / (k - 1) and every variant reached `minPerVariant`. `pValues[i]` is the leader
 * against variant i (1 for itself). Otherwise the control (variant 0) is what goes to the rest.
 */
export function pickWinner(
  variants: TProportion[],
  options: { alpha?: number; minPerVariant?: number } = {},
): TWinnerDecision {
  if (variants.length < 2) throw new RangeError('a test needs at least two variants');
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const minimum = options.minPerVariant ?? MIN_PER_VARIANT;
  const smallest = Math.min(...variants.map((v) => v.n));
  if (smallest < minimum) return { kind: 'too_small', smallest };
  let leader = 0;
  for (const [i, v] of variants.entries()) if (v.x / v.n > variants[leader]!.x / variants[leader]!.n) leader = i;
  const pValues = variants.map((v, i) => (i === leader ? 1 : twoProportionTest(v, variants[leader]!).pValue));
  const corrected = alpha / (variants.length - 1);
  const beatsAll = pValues.every((p, i) => i === leader || p < corrected);
  return beatsAll ? { kind: 'winner', winner: leader, pValues } : { kind: 'inconclusive', leader, pValues };
}

/** A group's per-guest figure: how many guests, the sum of the figure and the sum of its squares. */
export interface TMeanSample {
  n: number;
  sum: number;
  sumOfSquares: number;
}

export interface TLiftResult {
  meanMailed: number;
  meanHoldout: number;
  /** Per guest: mailed minus holdout. */
  difference: number;
  interval: [number, number];
  /** What the mailed group did beyond what it would have without the mail: difference x mailed guests. */
  incremental: number;
  incrementalInterval: [number, number];
}

export type THoldoutReport = ({ kind: 'measured' } & TLiftResult) | { kind: 'too_small'; holdout: number };

const varianceOf = (s: TMeanSample) => {
  if (s.n < 2) return 0;
  const mean = s.sum / s.n;
  return Math.max(0, (s.sumOfSquares - s.n * mean * mean) / (s.n - 1));
};

/**
 * What a campaign caused, from its mailed group and its holdout (bookings per guest, or revenue per
 * guest): the difference of the means with its interval (Welch's standard error, normal quantile:
 * the groups are hundreds of guests or more), and that difference over the mailed guests.
 */
export function holdoutLift(mailed: TMeanSample, holdout: TMeanSample, alpha = DEFAULT_ALPHA): THoldoutReport {
  if (holdout.n < MIN_HOLDOUT || mailed.n < MIN_HOLDOUT) return { kind: 'too_small', holdout: holdout.n };
  const meanMailed = mailed.sum / mailed.n;
  const meanHoldout = holdout.sum / holdout.n;
  const difference = meanMailed - meanHoldout;
  const se = Math.sqrt(varianceOf(mailed) / mailed.n + varianceOf(holdout) / holdout.n);
  const half = normalQuantile(1 - alpha / 2) * se;
  return {
    kind: 'measured',
    meanMailed,
    meanHoldout,
    difference,
    interval: [difference - half, difference + half],
    incremental: difference * mailed.n,
    incrementalInterval: [(difference - half) * mailed.n, (difference + half) * mailed.n],
  };
}

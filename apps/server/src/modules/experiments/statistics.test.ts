import { describe, expect, it } from 'vitest';
import {
  holdoutLift,
  normalCdf,
  normalQuantile,
  pickWinner,
  twoProportionTest,
  wilsonInterval,
  type TMeanSample,
  type TProportion,
} from './statistics.ts';
import { seededRandom } from '../../seeded-random.ts';

const binomial = (random: () => number, n: number, p: number) => {
  let x = 0;
  for (let i = 0; i < n; i += 1) if (random() < p) x += 1;
  return x;
};

describe('the normal distribution', () => {
  it('agrees with the tables', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021, 6);
    expect(normalCdf(-3)).toBeCloseTo(0.0013499, 6);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.995)).toBeCloseTo(2.575829, 5);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 5);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe('two-proportion z-test', () => {
  // Worked by hand (pooled standard error for z, unpooled for the interval) and checked with
  // Python's statistics.NormalDist.
  it.each([
    { a: [30, 200], b: [45, 200], z: 1.921538, p: 0.054664, low: -0.001146, high: 0.151146 },
    { a: [520, 1000], b: [480, 1000], z: -1.788854, p: 0.073638, low: -0.083791, high: 0.003791 },
    { a: [50, 1000], b: [75, 1000], z: 2.309401, p: 0.020921, low: 0.003811, high: 0.046189 },
  ])('$a against $b', ({ a, b, z, p, low, high }) => {
    const result = twoProportionTest({ x: a[0]!, n: a[1]! }, { x: b[0]!, n: b[1]! });
    expect(result.z).toBeCloseTo(z, 5);
    expect(result.pValue).toBeCloseTo(p, 5);
    expect(result.interval[0]).toBeCloseTo(low, 5);
    expect(result.interval[1]).toBeCloseTo(high, 5);
  });

  it('says nothing differs when nobody (or everybody) did it', () => {
    expect(twoProportionTest({ x: 0, n: 600 }, { x: 0, n: 600 })).toMatchObject({ z: 0, pValue: 1, difference: 0 });
    expect(() => twoProportionTest({ x: 0, n: 0 }, { x: 1, n: 10 })).toThrow(RangeError);
  });

  it('gives a Wilson interval that stays inside 0 and 1 near zero', () => {
    const [low, high] = wilsonInterval({ x: 0, n: 500 });
    expect(low).toBe(0);
    expect(high).toBeCloseTo(0.0076, 4);
    const [l2, h2] = wilsonInterval({ x: 20, n: 1000 });
    expect(l2).toBeCloseTo(0.01298, 4);
    expect(h2).toBeCloseTo(0.03069, 4);
  });
});

describe('picking a winner', () => {
  it('names the variant that beats the control at 95%', () => {
    const decision = pickWinner([
      { x: 50, n: 1000 },
      { x: 75, n: 1000 },
    ]);
    expect(decision).toMatchObject({ kind: 'winner', winner: 1 });
  });

  it('is inconclusive when the lead is within chance, and names the leader', () => {
    expect(
      pickWinner([
        { x: 30, n: 600 },
        { x: 40, n: 600 },
      ]),
    ).toMatchObject({ kind: 'inconclusive', leader: 1 });
  });

  it('names no winner below 500 recipients per variant, however large the lead', () => {
    expect(
      pickWinner([
        { x: 1, n: 499 },
        { x: 200, n: 600 },
      ]),
    ).toEqual({ kind: 'too_small', smallest: 499 });
  });

  it('with four variants, the leader must beat each other one at the corrected level', () => {
    // 75 against 50 of 1000 is p 0.021: enough against one other variant (0.05), not against three (0.0167).
    const variants: TProportion[] = [
      { x: 50, n: 1000 },
      { x: 75, n: 1000 },
      { x: 52, n: 1000 },
      { x: 49, n: 1000 },
    ];
    expect(pickWinner(variants)).toMatchObject({ kind: 'inconclusive', leader: 1 });
    variants[1] = { x: 85, n: 1000 };
    expect(pickWinner(variants)).toMatchObject({ kind: 'winner', winner: 1 });
  });

  it('declares a winner in about 5% of simulated A/A tests, never more than 7%, over 1,000 runs', () => {
    const random = seededRandom(26);
    const runs = 1000;
    let winners = 0;
    for (let run = 0; run < runs; run += 1) {
      const variants = [0, 1].map(() => ({ n: 1000, x: binomial(random, 1000, 0.04) }));
      if (pickWinner(variants).kind === 'winner') winners += 1;
    }
    expect(winners / runs).toBeLessThanOrEqual(0.07);
    expect(winners / runs).toBeGreaterThanOrEqual(0.03);
  });

  it('keeps an A/A/A/A test at the same rate (the correction for four variants)', () => {
    const random = seededRandom(2604);
    const runs = 1000;
    let winners = 0;
    for (let run = 0; run < runs; run += 1) {
      const variants = [0, 1, 2, 3].map(() => ({ n: 600, x: binomial(random, 600, 0.05) }));
      if (pickWinner(variants).kind === 'winner') winners += 1;
    }
    expect(winners / runs).toBeLessThanOrEqual(0.07);
  });

  it('finds a real difference most of the time (power), so the test is not merely timid', () => {
    const random = seededRandom(7);
    let winners = 0;
    for (let run = 0; run < 200; run += 1) {
      const variants = [
        { n: 2000, x: binomial(random, 2000, 0.04) },
        { n: 2000, x: binomial(random, 2000, 0.065) },
      ];
      const decision = pickWinner(variants);
      if (decision.kind === 'winner' && decision.winner === 1) winners += 1;
    }
    expect(winners / 200).toBeGreaterThan(0.8);
  });
});

describe('holdout lift', () => {
  const sample = (values: number[]): TMeanSample => ({
    n: values.length,
    sum: values.reduce((a, b) => a + b, 0),
    sumOfSquares: values.reduce((a, b) => a + b * b, 0),
  });
  // 1,000 mailed guests, 60 booked once; 200 held out, 6 booked once.
  const mailed = sample([...Array(60).fill(1), ...Array(940).fill(0)]);
  const holdout = sample([...Array(6).fill(1), ...Array(194).fill(0)]);

  it('says what the mail caused per guest and in all, with its interval', () => {
    const report = holdoutLift(mailed, holdout);
    expect(report.kind).toBe('measured');
    if (report.kind !== 'measured') return;
    expect(report.meanMailed).toBeCloseTo(0.06, 10);
    expect(report.meanHoldout).toBeCloseTo(0.03, 10);
    expect(report.difference).toBeCloseTo(0.03, 10);
    expect(report.incremental).toBeCloseTo(30, 8);
    // Welch: sqrt(0.06 * 0.94 / 999 + 0.03 * 0.97 / 199) = 0.0142368 (sample variances over n).
    expect(report.interval[0]).toBeCloseTo(0.03 - 1.959964 * 0.0142368, 4);
    expect(report.interval[1]).toBeCloseTo(0.03 + 1.959964 * 0.0142368, 4);
    expect(report.incrementalInterval[0]).toBeCloseTo(report.interval[0] * 1000, 8);
  });

  it('says a holdout too small to tell anything is too small', () => {
    expect(holdoutLift(mailed, sample(Array(99).fill(0)))).toEqual({ kind: 'too_small', holdout: 99 });
  });

  it('covers the true lift in about 95% of simulated campaigns', () => {
    const random = seededRandom(1226);
    let covered = 0;
    const runs = 400;
    for (let run = 0; run < runs; run += 1) {
      const draw = (n: number, p: number) => sample(Array.from({ length: n }, () => (random() < p ? 1 : 0)));
      const report = holdoutLift(draw(2000, 0.05), draw(400, 0.03));
      if (report.kind === 'measured' && report.interval[0] <= 0.02 && 0.02 <= report.interval[1]) covered += 1;
    }
    expect(covered / runs).toBeGreaterThan(0.91);
    expect(covered / runs).toBeLessThan(0.99);
  });
});

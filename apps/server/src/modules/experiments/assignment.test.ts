import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { armOf, uniformOf, type TExperimentShape } from './assignment.ts';

const guests = Array.from({ length: 20_000 }, () => randomUUID());
const shape: TExperimentShape = { seed: randomUUID(), holdoutShare: 0.1, testShare: 0.2, variants: 2 };
const share = (arms: ReturnType<typeof armOf>[], test: (arm: ReturnType<typeof armOf>) => boolean) =>
  arms.filter(test).length / arms.length;

describe("a guest's arm", () => {
  it('is the same every time it is asked (a crash or a resume changes nothing)', () => {
    for (const id of guests.slice(0, 100)) expect(armOf(shape, id)).toEqual(armOf({ ...shape }, id));
  });

  it('splits the audience in the shares asked for: 10% held out, 10% per variant, the rest waits', () => {
    const arms = guests.map((id) => armOf(shape, id));
    // 20,000 guests: a share's standard error is at most 0.35 points; 1.5 points is over four of them.
    expect(Math.abs(share(arms, (a) => a.kind === 'holdout') - 0.1)).toBeLessThan(0.015);
    expect(Math.abs(share(arms, (a) => a.kind === 'test' && a.variant === 0) - 0.1)).toBeLessThan(0.015);
    expect(Math.abs(share(arms, (a) => a.kind === 'test' && a.variant === 1) - 0.1)).toBeLessThan(0.015);
    expect(Math.abs(share(arms, (a) => a.kind === 'rest') - 0.7)).toBeLessThan(0.015);
  });

  it('is drawn anew for another campaign (independent of the first)', () => {
    const other = { ...shape, seed: randomUUID() };
    const heldTwice = guests.filter((id) => armOf(shape, id).kind === 'holdout' && armOf(other, id).kind === 'holdout');
    // Independent: about 1% of guests are held out by both, not 10%.
    expect(heldTwice.length / guests.length).toBeLessThan(0.02);
  });

  it('holds out nobody and tests nothing when neither is switched on', () => {
    const plain = { seed: shape.seed, holdoutShare: 0, testShare: 0, variants: 1 };
    expect(new Set(guests.slice(0, 500).map((id) => armOf(plain, id).kind))).toEqual(new Set(['rest']));
  });

  it('gives four variants a quarter of the test share each', () => {
    const four = { seed: shape.seed, holdoutShare: 0, testShare: 0.4, variants: 4 };
    const arms = guests.map((id) => armOf(four, id));
    for (const variant of [0, 1, 2, 3])
      expect(Math.abs(share(arms, (a) => a.kind === 'test' && a.variant === variant) - 0.1)).toBeLessThan(0.015);
  });

  it('draws uniformly in [0, 1)', () => {
    const values = guests.map((id) => uniformOf('seed', id));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
  });
});

/**
 * A small seeded PRNG, so that every record the simulator serves is a pure function of
 * (seed, account, purpose, day). Math.random is never used: two runs with the same seed must agree.
 */

/** 32-bit FNV-1a over the parts, used to derive independent streams from one seed. */
export function hashSeed(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u241f')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface TRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by relative weight: `[[value, weight], ...]`. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T;
  /** A Poisson-distributed count with the given mean (Knuth's method; means here are small). */
  poisson(mean: number): number;
}

/** mulberry32: tiny, fast, and good enough for synthetic data. */
export function createRandom(seed: number): TRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: TRandom = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted: (choices) => {
      const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [value, weight] of choices) {
        roll -= weight;
        if (roll < 0) return value;
      }
      const last = choices[choices.length - 1];
      if (!last) throw new Error('weighted pick from an empty list');
      return last[0];
    },
    poisson: (mean) => {
      if (mean <= 0) return 0;
      // Large means would underflow exp(-mean); a rounded normal approximation is plenty there.
      if (mean > 60) return Math.max(0, Math.round(mean + Math.sqrt(mean) * normal(next)));
      const limit = Math.exp(-mean);
      let count = 0;
      let product = next();
      while (product > limit) {
        count += 1;
        product *= next();
      }
      return count;
    },
  };
  return random;
}

/** Box-Muller, one value. */
function normal(next: () => number): number {
  const u = Math.max(next(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
}

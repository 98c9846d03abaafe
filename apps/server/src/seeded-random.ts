/**
 * A small seeded generator (mulberry32): uniform numbers in [0, 1) that are the same for the same
 * seed on every run, for what must be drawn alike each time (the demo history's guests, simulated
 * tests, the experiment story). Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

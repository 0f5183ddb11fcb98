/** A seeded source of unsigned 32-bit integers; the same seed always yields the same sequence. */
export type Random = {
  /** Next integer in [0, 2^32). */
  next(): number;
  /** Next integer in [0, bound). */
  below(bound: number): number;
};

/** mulberry32: tiny, fast and good enough to pick words; never used for anything secret. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return (value ^ (value >>> 14)) >>> 0;
  }
  return { next, below: bound => (bound <= 0 ? 0 : next() % bound) };
}

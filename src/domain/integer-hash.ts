// A 32-bit integer hash, for what must look random yet follow from a seed and a count alone: the
// ids of a seeded sandbox (engine/ids.ts) and the draws of delivery chaos (webhook-chaos.ts).

export const TWO_32 = 2 ** 32;

/**
 * lowbias32 (Chris Wellons's integer hash): a bijection of 32-bit integers in which every input bit
 * moves every output bit. Being a bijection is what makes seeded ids unique, not just likely so.
 */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

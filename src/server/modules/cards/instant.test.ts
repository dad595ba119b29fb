import { describe, expect, it } from 'vitest';
import { isSampled } from './instant';

/** A seeded generator of uuid-shaped ids (a linear congruential generator, 32-bit). */
function seededIds(seed: number, n: number) {
  let x = seed >>> 0;
  const next = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x.toString(16).padStart(8, '0');
  };
  return Array.from({ length: n }, () => {
    const h = `${next()}${next()}${next()}${next()}`;
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  });
}

describe('the sample of instant decisions (decision 131)', () => {
  it('honours the sample rate over 1,000 decisions, within binomial bounds', () => {
    for (const [seed, rate] of [
      [1, 0.1],
      [2, 0.1],
      [3, 0.25],
      [4, 0.5],
    ] as const) {
      const ids = seededIds(seed, 1000);
      const sampled = ids.filter((id) => isSampled(id, rate)).length;
      // Four standard deviations of a binomial(1000, rate) either side of its mean.
      const sd = Math.sqrt(1000 * rate * (1 - rate));
      expect(sampled, `seed ${seed}, rate ${rate}`).toBeGreaterThanOrEqual(1000 * rate - 4 * sd);
      expect(sampled, `seed ${seed}, rate ${rate}`).toBeLessThanOrEqual(1000 * rate + 4 * sd);
    }
  });

  it('samples nothing at 0 and everything at 1, and answers the same for a card every time', () => {
    const ids = seededIds(9, 200);
    expect(ids.filter((id) => isSampled(id, 0))).toEqual([]);
    expect(ids.filter((id) => isSampled(id, 1))).toHaveLength(200);
    expect(ids.map((id) => isSampled(id, 0.3))).toEqual(ids.map((id) => isSampled(id, 0.3)));
  });
});

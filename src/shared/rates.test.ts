import { describe, expect, it } from 'vitest';
import { type BrandRate, bestRate, byBestRate, OTHER_BRAND, type RateTier } from './rates';

const tier = (rate: string, format: RateTier['format'] = 'any'): RateTier => ({
  format,
  minValue: '100.00',
  maxValue: null,
  rate,
});

describe('bestRate', () => {
  it('is the brand rate when no tier pays more', () => {
    expect(bestRate({ rate: '0.88', tiers: [] })).toBe('0.88');
    expect(bestRate({ rate: '0.88', tiers: [tier('0.8'), tier('0.875', 'egift')] })).toBe('0.88');
  });

  it('is the best tier when one pays more, compared as rates and not as text', () => {
    expect(bestRate({ rate: '0.88', tiers: [tier('0.9'), tier('0.885', 'physical')] })).toBe('0.9');
    expect(bestRate({ rate: '0.95', tiers: [tier('1')] })).toBe('1');
  });
});

describe('byBestRate', () => {
  const brand = (name: string, rate: string, tiers: RateTier[] = []): BrandRate => ({
    brand: name,
    rate,
    minimum: '10.00',
    tiers,
  });

  it('puts a brand whose tier pays more ahead of one whose rate is higher, and leaves out Other', () => {
    const ranked = byBestRate([
      brand('Apple', '0.88'),
      brand('Ulta', '0.7', [tier('0.925', 'physical')]),
      brand(OTHER_BRAND, '0.95'),
      brand('Target', '0.88'),
    ]);
    expect(ranked.map((r) => [r.brand, r.best])).toEqual([
      ['Ulta', '0.925'],
      ['Apple', '0.88'],
      ['Target', '0.88'],
    ]);
  });
});

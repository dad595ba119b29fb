import { describe, expect, it } from 'vitest';
import { BRANDS, brandRate, DEFAULT_RATE, ratePercent } from './brands';

describe('brand list', () => {
  it('has 47 entries in rate-table order, ending with Other', () => {
    expect(BRANDS).toHaveLength(47);
    expect(BRANDS.slice(0, 4)).toEqual(['Amazon', 'Visa', 'iTunes', 'Mastercard']);
    expect(BRANDS.at(-1)).toBe('Other');
    expect(new Set(BRANDS).size).toBe(47);
    expect(BRANDS).toContain('Hotels.com');
  });

  it('gives each brand its rate and 0.85 to the rest', () => {
    expect(brandRate('Amazon')).toBe('0.91');
    expect(brandRate('Hotels.com')).toBe('0.87');
    expect(brandRate('One4All')).toBe('0.86');
    expect(brandRate('Belk')).toBe('0.85');
    expect(brandRate('Other')).toBe(DEFAULT_RATE);
    expect(brandRate('Some Local Shop')).toBe('0.85');
    expect(ratePercent('0.91')).toBe(91);
  });
});

import { rateProblem } from '@shared/rates';
import { describe, expect, it } from 'vitest';
import { percentToRate } from './rate-percent';

describe('a rate alert’s percent', () => {
  it('becomes the API’s rate in basis points, which the server takes', () => {
    for (const [typed, rate] of [
      ['90', '0.9000'],
      ['87.5', '0.8750'],
      [' 12.34 ', '0.1234'],
      ['90%', '0.9000'],
      ['1', '0.0100'],
      ['100', '1.0000'],
      ['100.00', '1.0000'],
    ] as const) {
      expect(percentToRate(typed), typed).toBe(rate);
      expect(rateProblem(rate), rate).toBeUndefined();
    }
  });

  it('is refused outside 1% to 100% or past 2 decimals', () => {
    for (const typed of ['', 'abc', '0.99', '100.01', '12.345', '-5', '1e2', '.5', '1000']) {
      expect(percentToRate(typed), typed).toBeUndefined();
    }
  });
});

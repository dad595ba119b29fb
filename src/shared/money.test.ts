import { describe, expect, it } from 'vitest';
import { expectedPayout, formatMoney, fromCents, toCents } from './money';

describe('money', () => {
  it('converts between decimal strings and cents exactly', () => {
    expect(toCents('100')).toBe(10_000);
    expect(toCents('100.5')).toBe(10_050);
    expect(toCents('0.07')).toBe(7);
    expect(toCents('99999999.99')).toBe(9_999_999_999);
    expect(fromCents(10_050)).toBe('100.50');
    expect(fromCents(7)).toBe('0.07');
    expect(() => toCents('1.234')).toThrow(RangeError);
    expect(() => toCents('1e3')).toThrow(RangeError);
    expect(() => toCents('-5')).toThrow(RangeError);
  });

  it('formats with a dollar sign, thousands separators and 2 decimals', () => {
    expect(formatMoney('1234.5')).toBe('$1,234.50');
    expect(formatMoney('0')).toBe('$0.00');
    expect(formatMoney(null)).toBe('$0.00');
    expect(formatMoney('99999999.99')).toBe('$99,999,999.99');
  });

  it('computes the expected payout with half-up rounding and no float error', () => {
    expect(expectedPayout('100', '0.91')).toBe('91.00');
    expect(expectedPayout('25.55', '0.91')).toBe('23.25'); // 23.2505 -> 23.25
    expect(expectedPayout('0.50', '0.85')).toBe('0.43'); // 0.425 -> 0.43
    expect(expectedPayout('1.15', '0.90')).toBe('1.04'); // 1.035 -> 1.04 (a float gives 1.03)
    expect(expectedPayout('99999999.99', '0.91')).toBe('90999999.99');
  });
});

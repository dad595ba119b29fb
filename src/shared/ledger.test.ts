import { describe, expect, it } from 'vitest';
import { formatSignedMoney } from './ledger';

describe('formatSignedMoney', () => {
  it('writes a debit with its minus, and a credit with its plus only when asked', () => {
    expect(formatSignedMoney('-1234.50')).toBe('-$1,234.50');
    expect(formatSignedMoney('91.00')).toBe('$91.00');
    expect(formatSignedMoney('91.00', { plus: true })).toBe('+$91.00');
    expect(formatSignedMoney('0.00', { plus: true })).toBe('$0.00');
    expect(formatSignedMoney('-0.05', { plus: true })).toBe('-$0.05');
  });
});

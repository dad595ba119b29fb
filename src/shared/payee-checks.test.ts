import { describe, expect, it } from 'vitest';
import {
  base58Decode,
  eip55,
  isAbaRoutingNumber,
  isEvmAddress,
  isTronAddress,
  looksLikeIban,
  validIban,
} from './payee-checks';

describe('ABA routing numbers', () => {
  it('pass with the right check digit', () => {
    // Federal Reserve Bank (Boston) and JPMorgan Chase (New York).
    expect(isAbaRoutingNumber('011000015')).toBe(true);
    expect(isAbaRoutingNumber('021000021')).toBe(true);
  });
  it('fail with the wrong one, or not 9 digits', () => {
    expect(isAbaRoutingNumber('123456789')).toBe(false);
    expect(isAbaRoutingNumber('021000022')).toBe(false);
    expect(isAbaRoutingNumber('02100002')).toBe(false);
    expect(isAbaRoutingNumber('02100002a')).toBe(false);
  });
});

describe('IBANs', () => {
  it('pass mod-97 and come back in electronic form', () => {
    expect(validIban('GB82 WEST 1234 5698 7654 32')).toBe('GB82WEST12345698765432');
    expect(validIban('de89370400440532013000')).toBe('DE89370400440532013000');
  });
  it('fail with a typo or a wrong length', () => {
    expect(validIban('GB82WEST12345698765433')).toBeNull();
    expect(validIban('DE8937040044053201300')).toBeNull();
    expect(looksLikeIban('GB82WEST12345698765433')).toBe(true);
    expect(looksLikeIban('000123456789')).toBe(false);
  });
});

describe('TRC-20 (TRON) addresses', () => {
  it('pass base58check', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
  });
  it('fail with one character changed, the wrong prefix or a bad alphabet', () => {
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLJ6t')).toBe(false);
    expect(isTronAddress(`T${'A'.repeat(33)}`)).toBe(false);
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6O')).toBe(false);
  });
  it('decodes base58 with leading zeros', () => {
    expect([...base58Decode('11z')!]).toEqual([0, 0, 57]);
    expect(base58Decode('0OIl')).toBeNull();
  });
});

describe('BEP-20 (EVM) addresses', () => {
  // EIP-55's own examples, and USDT's BEP-20 contract.
  const checksummed = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    '0x55d398326f99059fF775485246999027B3197955',
  ];
  it('pass with the EIP-55 checksum, or in one case', () => {
    for (const address of checksummed) {
      expect(isEvmAddress(address)).toBe(true);
      expect(`0x${eip55(address.slice(2).toLowerCase())}`).toBe(address);
      expect(isEvmAddress(address.toLowerCase())).toBe(true);
      expect(isEvmAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(true);
    }
  });
  it('fail mixed case that is not the checksum, and other shapes', () => {
    expect(isEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(isEvmAddress('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae')).toBe(false);
    expect(isEvmAddress('5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(false);
    expect(isEvmAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  createPaymentMethodSchema,
  PAYEE_MESSAGES,
  updatePaymentMethodSchema,
} from './payment-methods';

const messages = (input: object) =>
  createPaymentMethodSchema
    .safeParse(input)
    .error?.issues.map((i) => [i.path.join('.'), i.message]);

describe('createPaymentMethodSchema', () => {
  it('needs an account name and, for most types, an identifier', () => {
    expect(messages({ type: 'paypal', accountName: ' ' })).toEqual([
      ['accountName', 'Account name is required'],
      ['identifier', 'Account identifier is required'],
    ]);
    expect(messages({ type: 'venmo', accountName: 'A', identifier: 'x' })?.[0]).toEqual([
      'type',
      'Payment method type is required',
    ]);
  });

  it('needs the three bank fields for bank transfers', () => {
    expect(messages({ type: 'bank_transfer', accountName: 'A' })).toEqual([
      ['accountNumber', 'Account number is required for bank transfers'],
      ['bankName', 'Bank name is required for bank transfers'],
      ['routingNumber', 'Routing number is required for bank transfers'],
    ]);
    const ok = createPaymentMethodSchema.parse({
      type: 'bank_transfer',
      accountName: 'A B',
      accountNumber: '000123456789',
      bankName: 'First Bank',
      routingNumber: '021000021',
      identifier: 'ignored',
    });
    expect(ok.identifier).toBeNull();
    expect(ok.isDefault).toBe(false);
  });

  it('checks the shape of identifiers where it is known', () => {
    expect(messages({ type: 'paypal', accountName: 'A', identifier: 'not-an-email' })).toEqual([
      ['identifier', 'Enter a valid PayPal email'],
    ]);
    expect(messages({ type: 'usdt_trc20', accountName: 'A', identifier: '0xabc' })?.[0]?.[0]).toBe(
      'identifier',
    );
    expect(
      createPaymentMethodSchema.safeParse({
        type: 'cash_app',
        accountName: 'A',
        identifier: '$riley',
      }).success,
    ).toBe(true);
    expect(
      createPaymentMethodSchema.parse({
        type: 'cash_app',
        accountName: 'A',
        identifier: '$riley',
        bankName: 'dropped',
      }).bankName,
    ).toBeNull();
  });
});

describe('payee checks in the schema (decision 061)', () => {
  const bank = (routingNumber: string | undefined, accountNumber = '000123456789') => ({
    type: 'bank_transfer',
    accountName: 'A B',
    bankName: 'First Bank',
    accountNumber,
    routingNumber,
  });

  it('refuses a routing number that fails the ABA check digit, on routingNumber', () => {
    expect(messages(bank('123456789'))).toEqual([
      ['routingNumber', 'This routing number has a typo: its check digit does not match'],
    ]);
    expect(messages(bank('011000015'))).toBeUndefined();
  });

  it('refuses an IBAN: bank transfers are ACH to US accounts, with a routing number (decision 136)', () => {
    expect(messages(bank(undefined, 'gb82 west 1234 5698 7654 32'))).toEqual([
      ['accountNumber', PAYEE_MESSAGES.usBankOnly],
      ['routingNumber', 'Routing number is required for bank transfers'],
    ]);
    expect(messages(bank('011000015', 'GB82WEST12345698765432'))).toEqual([
      ['accountNumber', PAYEE_MESSAGES.usBankOnly],
    ]);
    // Digits alone are a US account: the routing number stays required (spec section 5).
    expect(messages(bank(undefined))).toEqual([
      ['routingNumber', 'Routing number is required for bank transfers'],
    ]);
    const ok = createPaymentMethodSchema.parse(bank('011000015'));
    expect(ok).toMatchObject({ accountNumber: '000123456789', routingNumber: '011000015' });
  });

  it('keeps a Cash App tag with its $, typed or not (decision 136)', () => {
    const tag = (identifier: string) =>
      createPaymentMethodSchema.parse({ type: 'cash_app', accountName: 'A', identifier })
        .identifier;
    expect(tag('casey')).toBe('$casey');
    expect(tag('$casey')).toBe('$casey');
    expect(tag('  casey_b ')).toBe('$casey_b');
    expect(
      updatePaymentMethodSchema.parse({ type: 'cash_app', accountName: 'A', identifier: 'x1' })
        .identifier,
    ).toBe('$x1');
  });

  it('checks wallet checksums and emails on identifier', () => {
    const id = (type: string, identifier: string) =>
      messages({ type, accountName: 'A', identifier });
    expect(id('usdt_trc20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeUndefined();
    expect(id('usdt_trc20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toEqual([
      ['identifier', 'This TRC20 address has a typo: its checksum does not match'],
    ]);
    expect(id('usdt_bep20', '0x55d398326f99059fF775485246999027B3197955')).toBeUndefined();
    expect(id('usdt_bep20', '0x55d398326f99059ff775485246999027b3197955')).toBeUndefined();
    expect(id('usdt_bep20', '0x55D398326f99059fF775485246999027B3197955')?.[0]?.[1]).toMatch(
      /EIP-55/,
    );
    expect(id('paypal', 'riley@example')).toEqual([['identifier', 'Enter a valid PayPal email']]);
    expect(id('paypal', 'riley.stone@example.com')).toBeUndefined();
    expect(id('cash_app', '$9')).toEqual([
      ['identifier', 'Enter a valid Cash App tag, like $yourcashtag'],
    ]);
  });
});

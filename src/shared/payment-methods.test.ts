import { describe, expect, it } from 'vitest';
import { createPaymentMethodSchema } from './payment-methods';

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

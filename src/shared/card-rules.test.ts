import { describe, expect, it } from 'vitest';
import { BRANDS, brandRate, seedMinimum } from './brands';
import {
  cardCodeLast4,
  cardValueProblem,
  createTransactionSchema,
  effectiveCardType,
  humanize,
  maskedCardCode,
  minimumMessage,
  normaliseCardCode,
  quote,
  type UploadFormValues,
  uploadFormProblems,
} from './card-rules';

const valid = {
  cardType: 'Amazon',
  cardValue: '100',
  cardCondition: 'brand_new',
  cardFormat: 'egift',
  paymentMethodId: '7f0c7a3e-2d1b-4c6a-9f55-1f4f3b2e9a10',
  imageUrls: ['/objects/cards/a.jpg'],
};

describe('card rules', () => {
  it('seeds the minimums of the spec', () => {
    for (const brand of ['iTunes', 'Amazon', 'Xbox', 'Walmart'])
      expect(seedMinimum(brand)).toBe('25.00');
    for (const brand of ['Visa', 'Steam', 'Other']) expect(seedMinimum(brand)).toBe('50.00');
    expect(BRANDS.map(brandRate).every((r) => /^0\.\d\d$/.test(r))).toBe(true);
  });

  it('explains what is wrong with a value, against the brand’s minimum', () => {
    expect(cardValueProblem('', '25.00')).toBe('Card value is required');
    expect(cardValueProblem('abc', '25.00')).toBe('Card value is required');
    expect(cardValueProblem('-5', '25.00')).toBe('Card value is required');
    expect(cardValueProblem('24.99', '25.00')).toBe('Minimum value for this card type is $25');
    expect(cardValueProblem('25', '25.00')).toBeNull();
    expect(cardValueProblem('49.99', '50.00')).toBe('Minimum value for this card type is $50');
    expect(cardValueProblem('12.00', '12.50')).toBe('Minimum value for this card type is $12.50');
    expect(cardValueProblem('50.001', '50.00')).toBe(
      'Card value can have at most 2 decimal places',
    );
    expect(cardValueProblem('123456789')).toBe('Card value is too large');
    expect(cardValueProblem('1')).toBeNull();
    expect(minimumMessage('1000.00')).toBe('Minimum value for this card type is $1,000');
  });

  it('quotes the payout at a rate, in cents', () => {
    expect(quote('0.91', '100')).toEqual({ rate: '0.91', expectedPayout: '91.00' });
    expect(quote('0.85', '60')).toEqual({ rate: '0.85', expectedPayout: '51.00' });
    expect(quote('0.885', '33.33')).toEqual({ rate: '0.885', expectedPayout: '29.50' });
  });

  it('shows underscores as spaces', () => {
    expect(humanize('partially_used')).toBe('partially used');
  });

  it('validates the upload payload with the spec messages', () => {
    expect(createTransactionSchema.safeParse(valid).success).toBe(true);
    const messages = (input: object) =>
      createTransactionSchema.safeParse({ ...valid, ...input }).error?.issues.map((i) => i.message);
    expect(messages({ cardType: ' ' })).toEqual(['Card type is required']);
    expect(messages({ cardType: 'Other' })).toEqual(['Please specify the gift card type']);
    expect(messages({ cardValue: undefined })).toEqual(['Card value is required']);
    // The brand's minimum is the server's to check (staff-managed): the payload rules pass it.
    expect(messages({ cardValue: 20 })).toBeUndefined();
    expect(messages({ quotedRate: '0.91' })).toBeUndefined();
    expect(messages({ quotedRate: '91%' })).toEqual(['quotedRate must be a rate such as 0.91']);
    expect(messages({ cardCondition: 'mint' })).toEqual(['Card condition is required']);
    expect(messages({ cardFormat: undefined })).toEqual(['Card format is required']);
    expect(messages({ paymentMethodId: '' })).toEqual(['Payment method is required']);
    expect(messages({ imageUrls: [] })).toEqual(['Please upload at least one gift card image']);
  });
});

describe('uploadFormProblems', () => {
  const form = {
    cardType: 'Amazon',
    customCardType: '',
    cardValue: '100',
    cardCondition: 'brand_new',
    cardFormat: 'physical',
    paymentMethodId: 'x',
    notes: '',
    cardCode: '',
  };
  const minimums: Record<string, string> = { amazon: '25.00', other: '50.00' };
  const minimumOf = (type: string) => minimums[type.toLowerCase()] ?? minimums.other;
  const messages = (input: object) =>
    Object.values(uploadFormProblems({ ...form, ...input } as UploadFormValues, minimumOf));

  it('refuses a card code over 64 characters, and takes one of 64', () => {
    expect(messages({ cardCode: 'A'.repeat(65) })).toEqual([
      'Card code / PIN must be at most 64 characters',
    ]);
    expect(messages({ cardCode: ` ${'A'.repeat(64)} ` })).toEqual([]);
  });

  it('asks for the custom type when Other is chosen and applies the $50 minimum to it', () => {
    expect(messages({ cardType: 'Other', customCardType: '  ' })).toEqual([
      'Please specify the gift card type',
    ]);
    expect(messages({ cardType: 'Other', customCardType: 'Bakery', cardValue: '30' })).toEqual([
      'Minimum value for this card type is $50',
    ]);
    expect(effectiveCardType({ cardType: 'Other', customCardType: ' Bakery ' })).toBe('Bakery');
    expect(effectiveCardType({ cardType: 'Visa', customCardType: 'ignored' })).toBe('Visa');
  });

  it('names every missing field of an empty form at once', () => {
    expect(
      messages({
        cardType: '',
        cardValue: '',
        cardCondition: undefined,
        cardFormat: undefined,
        paymentMethodId: '',
      }),
    ).toEqual([
      'Card type is required',
      'Card value is required',
      'Card condition is required',
      'Card format is required',
      'Payment method is required',
    ]);
  });

  it('shows the minimum before the condition and format are chosen', () => {
    expect(messages({ cardValue: '10', cardCondition: undefined, cardFormat: undefined })).toEqual([
      'Minimum value for this card type is $25',
      'Card condition is required',
      'Card format is required',
    ]);
  });

  it('has the spec messages for missing choices', () => {
    expect(messages({ cardType: '', cardValue: '' })).toEqual([
      'Card type is required',
      'Card value is required',
    ]);
    expect(
      messages({ cardCondition: undefined, cardFormat: undefined, paymentMethodId: '' }),
    ).toEqual([
      'Card condition is required',
      'Card format is required',
      'Payment method is required',
    ]);
  });
});

describe('card codes', () => {
  it('compare without case, spaces or dashes, and show the last 4 of a code of 8 or more', () => {
    expect(normaliseCardCode(' abcd-efgh 1234 ')).toBe('ABCDEFGH1234');
    expect(cardCodeLast4('abcd-efgh-1234')).toBe('1234');
    expect(cardCodeLast4('12-34-56-78')).toBe('5678');
    expect(cardCodeLast4('1234567')).toBe('');
    expect(maskedCardCode('1234')).toBe('••••1234');
  });
});

import { describe, expect, it } from 'vitest';
import { canAppeal, makeOfferSchema } from './fair-dealing';
import { durationText, offerHeadline, paymentTimeText, reviewTimeText } from './fair-dealing-text';

describe('fair dealing rules (decision 073)', () => {
  it('says durations as people do', () => {
    expect(durationText(0.2)).toBe('1 minute');
    expect(durationText(45)).toBe('45 minutes');
    expect(durationText(60)).toBe('1 hour');
    expect(durationText(90)).toBe('1 hour 30 minutes');
    expect(durationText(120)).toBe('2 hours');
    expect(durationText(3 * 24 * 60)).toBe('3 days');
  });

  const unpaid = { overall: { medianMinutes: null, sample: 0 }, brands: {} };

  it('shows a brand’s median when it has one, else the overall, else the target', () => {
    const times = {
      overall: { medianMinutes: 42, sample: 30 },
      brands: { Target: { medianMinutes: 20, sample: 21 } },
      targetMinutes: 120,
      payment: unpaid,
    };
    expect(reviewTimeText(times, 'Target')).toBe('Usually reviewed within 20 minutes');
    expect(reviewTimeText(times, 'Nike')).toBe('Usually reviewed within 42 minutes');
    expect(reviewTimeText(times)).toBe('Usually reviewed within 42 minutes');
    expect(
      reviewTimeText({
        overall: { medianMinutes: null, sample: 0 },
        brands: {},
        targetMinutes: 120,
        payment: unpaid,
      }),
    ).toBe('We aim to review every card within 2 hours');
  });

  it('says the time to payment of a brand, else overall, and nothing before a card is paid', () => {
    const times = {
      overall: { medianMinutes: 42, sample: 30 },
      brands: {},
      targetMinutes: 120,
      payment: {
        overall: { medianMinutes: 95, sample: 40 },
        brands: { Target: { medianMinutes: 25, sample: 21 } },
      },
    };
    expect(paymentTimeText(times, 'Target')).toBe('Usually paid within 25 minutes');
    expect(paymentTimeText(times, 'Nike')).toBe('Usually paid within 1 hour 35 minutes');
    expect(paymentTimeText({ ...times, payment: unpaid }, 'Target')).toBeNull();
  });

  it('allows one appeal of a rejected card within 14 days', () => {
    const day = 24 * 60 * 60 * 1000;
    const rejectedAt = '2026-01-01T00:00:00.000Z';
    const at = (days: number) => new Date(rejectedAt).getTime() + days * day;
    const card = { status: 'rejected', appeal: null, rejectedAt };
    expect(canAppeal(card, at(1))).toBe(true);
    expect(canAppeal(card, at(14))).toBe(true);
    expect(canAppeal(card, at(14) + 1)).toBe(false);
    expect(canAppeal({ ...card, appeal: { status: 'pending' } }, at(1))).toBe(false);
    expect(canAppeal({ ...card, status: 'processing' }, at(1))).toBe(false);
    expect(canAppeal({ ...card, rejectedAt: null }, at(1))).toBe(false);
  });

  it('takes an offer of a positive amount with a note, and words it for the customer', () => {
    expect(makeOfferSchema.parse({ verifiedValue: 40, note: ' Found $40 ' })).toEqual({
      verifiedValue: '40',
      note: 'Found $40',
    });
    for (const verifiedValue of ['0', '-1', '1.234', 'abc', '']) {
      expect(makeOfferSchema.safeParse({ verifiedValue, note: 'x' }).success).toBe(false);
    }
    expect(makeOfferSchema.safeParse({ verifiedValue: '40', note: '  ' }).success).toBe(false);
    expect(offerHeadline({ amount: '36.4', verifiedValue: '40' })).toBe(
      'Revised offer: $36.40 for a $40.00 balance',
    );
  });
});

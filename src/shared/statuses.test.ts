import { describe, expect, it } from 'vitest';
import { moneyStatus, PAYMENT_STATUSES, TRANSACTION_STATUSES } from './statuses';

/** Every (status, paymentStatus) pair the API admits, and what the customer is told. */
const EXPECTED: Record<string, Record<string, [string, string, boolean, boolean]>> = {
  // status: { paymentStatus: [label, Payment column, has a payout, has a receipt] }
  pending: {
    pending: ['Under review', 'Payment Pending', true, false],
    sent: ['Paid', 'Payment Sent', true, true],
    confirmed: ['Paid', 'Payment Confirmed', true, true],
  },
  processing: {
    pending: ['Approved (awaiting payment)', 'Payment Pending', true, false],
    sent: ['Paid', 'Payment Sent', true, true],
    confirmed: ['Paid', 'Payment Confirmed', true, true],
  },
  completed: {
    pending: ['Approved (awaiting payment)', 'Payment Pending', true, false],
    sent: ['Paid', 'Payment Sent', true, true],
    confirmed: ['Paid', 'Payment Confirmed', true, true],
  },
  rejected: {
    pending: ['Rejected (no payout)', 'No payout', false, false],
    sent: ['Paid', 'Payment Sent', true, true],
    confirmed: ['Paid', 'Payment Confirmed', true, true],
  },
};

describe('moneyStatus', () => {
  for (const status of TRANSACTION_STATUSES) {
    for (const paymentStatus of PAYMENT_STATUSES) {
      it(`${status} with payment ${paymentStatus}`, () => {
        const s = moneyStatus(status, paymentStatus);
        expect([s.label, s.paymentLabel, s.hasPayout, s.hasReceipt]).toEqual(
          EXPECTED[status]![paymentStatus],
        );
      });
    }
  }

  it('tells the seller a withdrawn card has no payout (decision 135)', () => {
    expect(moneyStatus('withdrawn', 'pending')).toMatchObject({
      key: 'withdrawn',
      label: 'Withdrawn (no payout)',
      paymentLabel: 'No payout',
      hasPayout: false,
      hasReceipt: false,
    });
  });

  it('covers every pair (the table above is complete)', () => {
    expect(Object.keys(EXPECTED)).toEqual([...TRANSACTION_STATUSES]);
    for (const status of TRANSACTION_STATUSES) {
      expect(Object.keys(EXPECTED[status]!)).toEqual([...PAYMENT_STATUSES]);
    }
  });

  it('colours a rejected card red and its Payment column grey; unknown values are under review', () => {
    expect(moneyStatus('rejected', 'pending')).toMatchObject({
      colour: 'red',
      paymentColour: 'gray',
    });
    expect(moneyStatus('paid', 'pending')).toMatchObject({
      key: 'under_review',
      hasReceipt: false,
      paymentLabel: 'Payment Pending',
    });
    expect(moneyStatus('completed', 'refunded')).toMatchObject({
      key: 'approved',
      paymentLabel: 'refunded',
      hasReceipt: false,
    });
  });
});

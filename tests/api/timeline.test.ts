import { describe, expect, it } from 'vitest';
import { setUpAppWithStaff } from './builders';
import { as, reviewCard, type SignedIn, signUp, submitCard } from './helpers';

const { t, staff } = setUpAppWithStaff();

const timeline = async (who: SignedIn, id: string, admin = false) => {
  const response = await as(t.app, who, {
    method: 'GET',
    url: admin ? `/api/admin/transactions/${id}/timeline` : `/api/transactions/${id}/timeline`,
  });
  return response;
};
const review = (id: string, payload: object) => reviewCard(t.app, staff, id, payload);
const post = (who: SignedIn, url: string, payload?: object) =>
  as(t.app, who, { method: 'POST', url, payload });

describe('a card’s timeline (decision 073)', () => {
  it('lists every step in order from the audit trail, with who did it for staff only', async () => {
    const customer = await signUp(t.app);
    const card = (await submitCard(t.app, customer)).json();
    await review(card.id, { status: 'processing' });
    await post(staff, `/api/admin/transactions/${card.id}/offer`, {
      verifiedValue: '40.00',
      note: 'Balance is $40',
    });
    await post(customer, `/api/transactions/${card.id}/offer/decline`);
    await post(customer, `/api/transactions/${card.id}/appeal`, { message: 'It has $100 on it.' });
    await post(staff, `/api/admin/transactions/${card.id}/appeal/decision`, {
      decision: 'overturned',
    });
    await review(card.id, { status: 'completed', paymentStatus: 'sent', paymentAmount: '91.00' });

    const mine = await timeline(customer, card.id);
    expect(mine.statusCode).toBe(200);
    const steps = mine.json() as { step: string; at: string; detail?: string; by?: string }[];
    expect(steps.map((s) => s.step)).toEqual([
      'submitted',
      // Processing is approved, awaiting payment: stamped when staff set it, not at payment.
      'approved',
      'offer_made',
      'offer_declined',
      'rejected',
      'appealed',
      'appeal_decided',
      'in_review',
      'approved',
      'payment_sent',
    ]);
    expect(steps.map((s) => s.at)).toEqual([...steps.map((s) => s.at)].sort());
    expect(steps.find((s) => s.step === 'offer_made')!.detail).toBe(
      'Revised offer: $36.40 for a $40.00 balance',
    );
    expect(steps.find((s) => s.step === 'rejected')!.detail).toBe(
      'Balance differs (offer declined)',
    );
    expect(steps.find((s) => s.step === 'payment_sent')!.detail).toBe('$91.00');
    expect(steps.some((s) => 'by' in s)).toBe(false);

    const staffView = await timeline(staff, card.id, true);
    expect(staffView.statusCode).toBe(200);
    const withBy = staffView.json() as { step: string; by: string }[];
    expect(withBy.map((s) => s.step)).toEqual(steps.map((s) => s.step));
    expect(withBy.map((s) => s.by)).toEqual([
      customer.user.email,
      staff.user.email,
      staff.user.email,
      customer.user.email,
      customer.user.email,
      customer.user.email,
      staff.user.email,
      staff.user.email,
      staff.user.email,
      staff.user.email,
    ]);
  });

  it('stamps Approved when the card was approved, not again when it is completed at payment', async () => {
    const customer = await signUp(t.app);
    const card = (await submitCard(t.app, customer)).json();
    const approved = (await review(card.id, { status: 'processing' })).json();
    await review(card.id, { status: 'completed', paymentStatus: 'sent', paymentAmount: '91.00' });
    const steps = (await timeline(customer, card.id)).json() as { step: string; at: string }[];
    expect(steps.map((s) => s.step)).toEqual(['submitted', 'approved', 'payment_sent']);
    expect(steps[1]!.at).toBe(approved.updatedAt);
  });

  it('shows a new card as submitted only, and a rejection with its reason', async () => {
    const customer = await signUp(t.app);
    const card = (await submitCard(t.app, customer)).json();
    expect((await timeline(customer, card.id)).json()).toEqual([
      { step: 'submitted', at: card.createdAt },
    ]);
    await review(card.id, { status: 'rejected', rejectionReason: 'already_redeemed' });
    const steps = (await timeline(customer, card.id)).json();
    expect(steps[1]).toMatchObject({ step: 'rejected', detail: 'Already redeemed' });
  });

  it('answers another customer’s card and a bad id as not found, and the staff one to staff only', async () => {
    const owner = await signUp(t.app);
    const card = (await submitCard(t.app, owner)).json();
    const stranger = await signUp(t.app);
    expect((await timeline(stranger, card.id)).statusCode).toBe(404);
    expect((await timeline(stranger, 'nope')).statusCode).toBe(404);
    expect((await timeline(owner, card.id, true)).statusCode).toBe(403);
    expect((await timeline(staff, '00000000-0000-4000-8000-000000000000', true)).statusCode).toBe(
      404,
    );
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/transactions/${card.id}/timeline`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

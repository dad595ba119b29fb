import { describe, expect, it } from 'vitest';
import { ACH, achReturnFile, BANK } from '../lib/ach';
import { pdfText } from '../pdf-text';
import { ACH_RAIL, cardApprovedBy, sellersCard, setUpAppWithStaff } from './builders';
import { as, type SignedIn } from './helpers';

/**
 * What the payout screens read (issue 40): the payouts list names each seller, finance lists the
 * ACH batches to download, settle or match returns to, the seller's card says why its payout
 * failed, and the receipt carries the rail's reference.
 */
const { t, staff } = setUpAppWithStaff(ACH_RAIL, 'payout-screens@example.com');

const post = (url: string, payload?: object) => as(t.app, staff, { method: 'POST', url, payload });
const get = (url: string, who: SignedIn = staff) => as(t.app, who, { method: 'GET', url });

const approvedBankCard = (name: { firstName: string; lastName: string }) =>
  cardApprovedBy(t, staff, { name, method: BANK });

const cardOf = (who: SignedIn, id: string) => sellersCard<{ payout: unknown }>(t, who, id);

describe('what the payout screens show', () => {
  it('names the seller of each payout, lists ACH batches, says why a payout failed and prints the reference on the receipt', async () => {
    const paid = await approvedBankCard({ firstName: 'Paula', lastName: 'Paid' });
    const returned = await approvedBankCard({ firstName: 'Rory', lastName: 'Returned' });
    const queued = await post('/api/admin/disbursements', {
      transactionIds: [paid.id, returned.id],
    });
    expect(queued.statusCode).toBe(201);
    const list = (await get('/api/admin/disbursements?status=queued')).json() as {
      items: { id: string; customerId: string; customerEmail: string; customerName: string }[];
    };
    const mine = list.items.filter((d) =>
      [paid.who.user.id, returned.who.user.id].includes(d.customerId),
    );
    expect(mine).toHaveLength(2);
    for (const d of mine) {
      const who = d.customerId === paid.who.user.id ? paid.who : returned.who;
      expect(d.customerEmail).toBe(who.user.email);
      expect(d.customerName).toBe(who === paid.who ? 'Paula Paid' : 'Rory Returned');
    }
    const one = (await get(`/api/admin/disbursements/${mine[0]!.id}`)).json();
    expect(one.customerEmail).toBe(mine[0]!.customerEmail);

    // No batch yet; then one, listed for finance to download and settle.
    expect((await get('/api/admin/ach-batches')).json()).toEqual([]);
    const batch = await post('/api/admin/ach-batches', {});
    expect(batch.statusCode).toBe(201);
    const { id: batchId } = batch.json() as { id: string };
    const batches = (await get('/api/admin/ach-batches')).json();
    expect(batches).toEqual([
      {
        id: batchId,
        entries: 2,
        total: batch.json().total,
        createdAt: expect.any(String),
        settledAt: null,
      },
    ]);

    // Sent: the seller sees the trace number, and the receipt prints it.
    const sent = (await cardOf(paid.who, paid.id)).payout as Record<string, unknown>;
    expect(sent).toEqual({
      status: 'submitted',
      rail: 'ach',
      reference: expect.any(String),
      url: null,
    });
    const trace = sent.reference as string;
    expect(trace).toMatch(/^\d{15}$/);
    const receipt = await get(`/api/transactions/${paid.id}/receipt`, paid.who);
    expect(receipt.statusCode).toBe(200);
    expect((await pdfText(receipt.rawPayload)).join('|')).toContain(`Payout reference|${trace}`);

    // The bank returns the other one: its seller's card says why.
    const otherTrace = ((await cardOf(returned.who, returned.id)).payout as { reference: string })
      .reference;
    const boundary = '----cb-screens';
    const text = achReturnFile(ACH, [{ trace: otherTrace, code: 'R03' }]);
    const upload = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/ach-returns',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="returns.ach"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`,
      ),
    });
    expect(upload.statusCode).toBe(200);
    expect(upload.json().returned).toHaveLength(1);
    expect((await cardOf(returned.who, returned.id)).payout).toEqual({
      status: 'failed',
      rail: 'ach',
      reference: otherTrace,
      url: null,
      reason: 'R03: no account or unable to locate account',
    });

    // Settled: the batch says when, the paid card is confirmed and its receipt still prints it.
    expect((await post(`/api/admin/ach-batches/${batchId}/settled`)).statusCode).toBe(200);
    const [settled] = (await get('/api/admin/ach-batches')).json();
    expect(settled.settledAt).toEqual(expect.any(String));
    expect((await cardOf(paid.who, paid.id)).payout).toEqual({
      status: 'confirmed',
      rail: 'ach',
      reference: trace,
      url: null,
    });
    const again = await get(`/api/transactions/${paid.id}/receipt`, paid.who);
    expect((await pdfText(again.rawPayload)).join('|')).toContain(`Payout reference|${trace}`);

    // The seller's timeline: queued by its rail, sent with the trace number, confirmed.
    const steps = (await get(`/api/transactions/${paid.id}/timeline`, paid.who)).json() as {
      step: string;
      detail?: string;
    }[];
    expect(steps.filter((s) => s.step.startsWith('pay'))).toEqual([
      expect.objectContaining({ step: 'payout_queued', detail: 'To be sent by ACH bank transfer' }),
      expect.objectContaining({ step: 'payment_sent', detail: expect.stringContaining(trace) }),
      expect.objectContaining({ step: 'payment_confirmed' }),
    ]);
    // Staff's list: an ACH trace links nowhere.
    const confirmed = (await get('/api/admin/disbursements?status=confirmed')).json().items;
    expect(
      confirmed.find((d: { customerId: string }) => d.customerId === paid.who.user.id),
    ).toMatchObject({
      reference: trace,
      url: null,
    });
  }, 60_000);
});

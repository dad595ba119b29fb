import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, notifications, transactions } from '../../src/server/db/schema';
import { checkLedger } from '../../src/server/modules/ledger';
import { queueAutomaticPayouts } from '../../src/server/modules/payouts';
import { ACH, achReturnFile, BANK, nacha } from '../lib/ach';
import { ACH_RAIL, cardApprovedBy, sellersCard, setUpAppWithStaff } from './builders';
import { as, type SignedIn, signInAs, signUp } from './helpers';

const { t, staff } = setUpAppWithStaff(ACH_RAIL, 'payouts-owner@example.com');

const post = (url: string, payload?: object, who: SignedIn = staff) =>
  as(t.app, who, { method: 'POST', url, payload });
const get = (url: string, who: SignedIn = staff) => as(t.app, who, { method: 'GET', url });

/** A seller's card of `value` to a method of theirs (a bank account unless `method`), approved by staff unless `pending`. */
const approvedCard = (options: Parameters<typeof cardApprovedBy>[2] = {}) =>
  cardApprovedBy(t, staff, { method: BANK, ...options });

const cardRow = async (id: string) =>
  (await t.database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;

const queue = async (ids: string[]) => {
  const response = await post('/api/admin/disbursements', { transactionIds: ids });
  expect(response.statusCode).toBe(201);
  return response.json() as {
    disbursements: { id: string; amount: string; status: string; transactionIds: string[] }[];
    refused: { transactionId: string; reason: string; until?: string }[];
  };
};

const balanceOf = async (who: SignedIn) => (await get('/api/balance', who)).json();

const payoutOfCard = async (who: SignedIn, id: string) => (await sellersCard(t, who, id)).payout;

async function booksAddUp() {
  expect(await checkLedger(t.database.db)).toEqual([]);
  const trial = (await get('/api/admin/ledger/trial-balance')).json();
  expect(trial.balanced).toBe(true);
}

describe('payout rails (issue 40)', () => {
  it('lists each rail with its types, kind, switch and configuration', async () => {
    const response = await get('/api/admin/payout-rails');
    expect(response.statusCode).toBe(200);
    const rails = response.json() as {
      rail: string;
      kind: string;
      configured: boolean;
      autoPayout: boolean;
      paymentTypes: string[];
      balances: unknown;
    }[];
    expect(rails.map((r) => [r.rail, r.kind, r.configured, r.autoPayout, r.balances])).toEqual([
      ['manual', 'manual', true, false, null],
      ['ach', 'ach_file', true, false, null],
      ['usdt_bep20', 'evm_token', false, false, null],
    ]);
    expect(rails[1]!.paymentTypes).toEqual(['bank_transfer']);
    expect(rails[0]!.paymentTypes).toContain('usdt_trc20');
  });

  it('refuses the EVM rail without its env (409 rail_not_configured) and a reviewer (403)', async () => {
    const refused = await as(t.app, staff, {
      method: 'PUT',
      url: '/api/admin/payout-rails/usdt_bep20',
      payload: { autoPayout: true },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('rail_not_configured');
    const reviewer = await signInAs(t, 'reviewer');
    const forbidden = await as(t.app, reviewer, {
      method: 'PUT',
      url: '/api/admin/payout-rails/ach',
      payload: { autoPayout: true },
    });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('forbidden_role');
    expect((await get('/api/admin/disbursements', reviewer)).statusCode).toBe(403);
  });
});

describe('disbursements on the ACH rail', () => {
  it('queues one payout per seller, and refuses cards not payable, in a payout or paid by hand', async () => {
    const seller = await signUp(t.app);
    const a = await approvedCard({ who: seller, value: '100' });
    const b = await approvedCard({ who: seller, value: '50', methodId: a.methodId });
    const pending = await approvedCard({ pending: true });
    const paypal = await approvedCard({
      method: { type: 'paypal', accountName: 'P', identifier: 'p@example.com' },
    });
    const result = await queue([a.id, b.id, pending.id, paypal.id]);
    expect(result.disbursements).toHaveLength(1);
    const [payout] = result.disbursements;
    expect(payout!.status).toBe('queued');
    expect(payout!.transactionIds.sort()).toEqual([a.id, b.id].sort());
    expect(Number(payout!.amount)).toBeCloseTo(Number(a.expectedPayout) + Number(b.expectedPayout));
    expect(result.refused.map((r) => [r.transactionId, r.reason])).toEqual([
      [pending.id, 'not_payable'],
      [paypal.id, 'not_payable'],
    ]);
    const again = await queue([a.id]);
    expect(again.disbursements).toEqual([]);
    expect(again.refused).toEqual([
      expect.objectContaining({ transactionId: a.id, reason: 'in_payout' }),
    ]);
    // The card waits in its payout: Payment Pending, shown queued to its seller, off the list
    // staff pay by hand, and mark-sent leaves it alone.
    expect((await cardRow(a.id)).paymentStatus).toBe('pending');
    expect(await payoutOfCard(seller, a.id)).toEqual({
      status: 'queued',
      rail: 'ach',
      reference: null,
      url: null,
    });
    const list = (await get('/api/admin/payouts')).json();
    const listed = list.groups.flatMap((g: { cards: { id: string }[] }) =>
      g.cards.map((c) => c.id),
    );
    expect(listed).not.toContain(a.id);
    const marked = await post('/api/admin/payouts/mark-sent', {
      items: [{ id: a.id, amount: a.expectedPayout }],
    });
    expect(marked.json().sent).toEqual([]);
    expect(marked.json().skipped[0]).toMatchObject({ id: a.id, reason: 'not_payable' });
    const timeline = (await get(`/api/transactions/${a.id}/timeline`, seller)).json();
    expect(timeline.map((s: { step: string }) => s.step)).toContain('payout_queued');
  });

  it('puts a card in one payout when ten requests name it at once', async () => {
    const card = await approvedCard();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        post('/api/admin/disbursements', { transactionIds: [card.id] }),
      ),
    );
    const made = results.flatMap((r) => r.json().disbursements);
    expect(made).toHaveLength(1);
    expect(
      results.flatMap((r) => r.json().refused.map((x: { reason: string }) => x.reason)),
    ).toEqual(Array(9).fill('in_payout'));
  });

  it('cancels only a queued payout, retries only a failed one (409 wrong_state)', async () => {
    const card = await approvedCard();
    const [payout] = (await queue([card.id])).disbursements;
    const retry = await post(`/api/admin/disbursements/${payout!.id}/retry`);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().code).toBe('wrong_state');
    const cancel = await post(`/api/admin/disbursements/${payout!.id}/cancel`);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().status).toBe('cancelled');
    const twice = await post(`/api/admin/disbursements/${payout!.id}/cancel`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('wrong_state');
    // Its card may be queued again.
    expect((await queue([card.id])).disbursements).toHaveLength(1);
    expect(
      (await get('/api/admin/disbursements/00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
  });

  it('says what each rail’s queued payouts add up to, every one of them', async () => {
    // Drain what earlier tests queued: the bank rail's queue starts empty.
    await post('/api/admin/ach-batches', {});
    const queuedOn = async () =>
      Object.fromEntries(
        ((await get('/api/admin/payout-rails')).json() as { rail: string; queued: string }[]).map(
          (r) => [r.rail, r.queued],
        ),
      );
    expect((await queuedOn()).ach).toBe('0.00');
    const cards = await Promise.all(['100', '40', '55.55'].map((value) => approvedCard({ value })));
    const queued = await queue(cards.map((c) => c.id));
    expect(queued.disbursements).toHaveLength(3);
    const cents = queued.disbursements.reduce(
      (sum, d) => sum + Math.round(Number(d.amount) * 100),
      0,
    );
    expect(await queuedOn()).toEqual({
      manual: '0.00',
      ach: (cents / 100).toFixed(2),
      usdt_bep20: '0.00',
    });
    // Sent in a batch, they are no longer queued.
    await post('/api/admin/ach-batches', {});
    expect((await queuedOn()).ach).toBe('0.00');
  });

  it('builds a NACHA file, sends the cards, and a settled batch confirms them; the books follow', async () => {
    // Drain what earlier tests queued, so this batch holds this test's payouts only.
    await post('/api/admin/ach-batches', {});
    const seller = await signUp(t.app);
    const one = await approvedCard({ who: seller, value: '100' });
    const two = await approvedCard({ value: '40' });
    const queued = await queue([one.id, two.id]);
    expect(queued.disbursements).toHaveLength(2);
    const created = await post('/api/admin/ach-batches', {
      disbursementIds: queued.disbursements.map((d) => d.id),
    });
    expect(created.statusCode).toBe(201);
    const batch = created.json() as { id: string; entries: number; total: string };
    expect(batch.entries).toBe(2);
    const total = queued.disbursements.reduce(
      (sum, d) => sum + Math.round(Number(d.amount) * 100),
      0,
    );
    expect(Math.round(Number(batch.total) * 100)).toBe(total);

    const file = await get(`/api/admin/ach-batches/${batch.id}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/plain/);
    const lines = file.body.trimEnd().split(/\r?\n/);
    expect(lines.every((l) => l.length === 94)).toBe(true);
    expect(lines.length % 10).toBe(0);
    const entries = nacha.from(file.body).data.batches.flatMap((b) => b.entries);
    expect(entries).toHaveLength(2);
    const listed = (await get('/api/admin/disbursements?status=submitted')).json().items as {
      id: string;
      reference: string;
      amount: string;
      transactionIds: string[];
    }[];
    for (const entry of entries) {
      expect(
        `${String(entry.receivingDFIIdentification).padStart(8, '0')}${entry.checkDigit}`,
      ).toBe(BANK.routingNumber);
      expect(entry.dfiAccount).toBe(BANK.accountNumber);
      const trace = String(entry.traceNumber).padStart(15, '0');
      expect(trace.startsWith(ACH.originRouting.slice(0, 8))).toBe(true);
      const payout = listed.find((d) => d.reference === trace)!;
      expect(payout).toBeDefined();
      expect(entry.amount).toBe(Math.round(Number(payout.amount) * 100));
    }
    // Sent: Payment Sent with the trace as its reference; the money on the way.
    const row = await cardRow(one.id);
    expect(row.paymentStatus).toBe('sent');
    const reference = row.payoutReference!;
    expect(await payoutOfCard(seller, one.id)).toEqual({
      status: 'submitted',
      rail: 'ach',
      reference,
      url: null,
    });
    expect(await balanceOf(seller)).toMatchObject({
      owed: '0.00',
      onTheWay: one.expectedPayout,
      paid: '0.00',
    });
    await booksAddUp();

    const settled = await post(`/api/admin/ach-batches/${batch.id}/settled`);
    expect(settled.statusCode).toBe(200);
    expect(settled.json().confirmed).toBe(2);
    expect((await cardRow(one.id)).paymentStatus).toBe('confirmed');
    expect(await balanceOf(seller)).toMatchObject({
      owed: '0.00',
      onTheWay: '0.00',
      paid: one.expectedPayout,
    });
    const timeline = (await get(`/api/transactions/${one.id}/timeline`, seller)).json() as {
      step: string;
      detail?: string;
    }[];
    expect(timeline.map((s) => s.step)).toEqual(
      expect.arrayContaining(['payout_queued', 'payment_sent', 'payment_confirmed']),
    );
    expect(timeline.find((s) => s.step === 'payment_sent')!.detail).toContain(reference);
    const again = await post(`/api/admin/ach-batches/${batch.id}/settled`);
    expect(again.statusCode).toBe(409);
    await booksAddUp();
  });

  it('fails two payouts from a return file with the reason in words; the seller is told; a retry pays', async () => {
    await post('/api/admin/ach-batches', {});
    const first = await approvedCard({ value: '60' });
    const second = await approvedCard({ value: '70' });
    const kept = await approvedCard({ value: '80' });
    const queued = await queue([first.id, second.id, kept.id]);
    const batch = (
      await post('/api/admin/ach-batches', {
        disbursementIds: queued.disbursements.map((d) => d.id),
      })
    ).json();
    expect(batch.entries).toBe(3);
    const traceOf = async (id: string) => (await cardRow(id)).payoutReference!;
    const returnFile = achReturnFile(ACH, [
      { trace: await traceOf(first.id), code: 'R03' },
      { trace: await traceOf(second.id), code: 'R01' },
    ]);
    const upload = await uploadReturns(returnFile);
    expect(upload.statusCode).toBe(200);
    const returned = upload.json().returned as { disbursementId: string; code: string }[];
    expect(returned.map((r) => r.code).sort()).toEqual(['R01', 'R03']);
    const failed = (
      await get(
        `/api/admin/disbursements/${returned.find((r) => r.code === 'R03')!.disbursementId}`,
      )
    ).json();
    expect(failed.status).toBe('failed');
    expect(failed.lastError).toBe('R03: no account or unable to locate account');
    const row = await cardRow(first.id);
    expect(row.paymentStatus).toBe('pending');
    expect(await payoutOfCard(first.who, first.id)).toMatchObject({ status: 'failed' });
    expect(await balanceOf(first.who)).toMatchObject({
      owed: first.expectedPayout,
      onTheWay: '0.00',
      paid: '0.00',
    });
    const [notice] = await t.database.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, first.who.user.id),
          eq(notifications.link, '/payment-methods'),
        ),
      );
    expect(notice!.body).toContain('R03: no account or unable to locate account');
    expect((await cardRow(kept.id)).paymentStatus).toBe('sent');
    // The same file twice returns nothing twice.
    expect((await uploadReturns(returnFile)).json().returned).toEqual([]);
    await booksAddUp();

    // Retried: queued again as a new attempt, and paid in the next batch.
    const retried = await post(`/api/admin/disbursements/${failed.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'queued' });
    const next = (await post('/api/admin/ach-batches', { disbursementIds: [failed.id] })).json();
    expect(next.entries).toBe(1);
    const after = (await get(`/api/admin/disbursements/${failed.id}`)).json();
    expect(after).toMatchObject({ status: 'submitted', attempts: 2 });
    expect((await cardRow(first.id)).paymentStatus).toBe('sent');
    await booksAddUp();
  });

  it('puts each payout in one file when two batches are built at once', async () => {
    await post('/api/admin/ach-batches', {});
    const cards = await Promise.all([approvedCard(), approvedCard(), approvedCard()]);
    await queue(cards.map((c) => c.id));
    const [a, b] = await Promise.all([
      post('/api/admin/ach-batches', {}),
      post('/api/admin/ach-batches', {}),
    ]);
    const entries = [a, b]
      .filter((r) => r.statusCode === 201)
      .reduce((sum, r) => sum + r.json().entries, 0);
    expect(entries).toBe(3);
    for (const c of cards) expect((await cardRow(c.id)).paymentStatus).toBe('sent');
    await booksAddUp();
  });

  it('queues approved bank cards by itself once finance turns automatic payout on, audited', async () => {
    await post('/api/admin/ach-batches', {});
    const card = await approvedCard();
    expect(await t.app.run(queueAutomaticPayouts)).toBe(0);
    const on = await as(t.app, staff, {
      method: 'PUT',
      url: '/api/admin/payout-rails/ach',
      payload: { autoPayout: true },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ rail: 'ach', autoPayout: true, configured: true });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'payout_rail'), eq(auditLog.action, 'auto_payout')));
    expect(audits).toHaveLength(1);
    const [x, y] = await Promise.all([
      t.app.run(queueAutomaticPayouts),
      t.app.run(queueAutomaticPayouts),
    ]);
    expect(x + y).toBeGreaterThanOrEqual(1);
    expect(await payoutOfCard(card.who, card.id)).toMatchObject({ status: 'queued', rail: 'ach' });
    const queuedOnce = (await get('/api/admin/disbursements?status=queued'))
      .json()
      .items.filter((d: { transactionIds: string[] }) => d.transactionIds.includes(card.id));
    expect(queuedOnce).toHaveLength(1);
    await as(t.app, staff, {
      method: 'PUT',
      url: '/api/admin/payout-rails/ach',
      payload: { autoPayout: false },
    });
  });
});

async function uploadReturns(text: string) {
  const boundary = '----cb-returns';
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="returns.ach"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`,
  );
  return as(t.app, staff, {
    method: 'POST',
    url: '/api/admin/ach-returns',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
}

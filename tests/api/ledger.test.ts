import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ledgerEntries,
  ledgerPostings,
  mailOutbox,
  transactions,
} from '../../src/server/db/schema';
import { checkBooks, checkLedger, describeMismatch } from '../../src/server/modules/ledger';
import { figuresFromCards } from '../lib/card-figures';
import { parseCsv } from '../parse-csv';
import { setUpAppWithStaff, submittedCard } from './builders';
import { as, reviewCard, type SignedIn, signInAs } from './helpers';

const { t, staff: owner } = setUpAppWithStaff();

const get = (who: SignedIn | undefined, url: string) => as(t.app, who, { method: 'GET', url });

/** A staff save as the portal sends it: with the row's updatedAt as the dialog loaded it. */
const review = (id: string, payload: object, who: SignedIn = owner) =>
  reviewCard(t.app, who, id, payload);

/** A new customer's $100 Amazon card (quoted at 91.00), paid to PayPal casey@example.com. */
const newCard = (body: object = {}) => submittedCard(t, body);

/** The card's entries, oldest first: kind, and postings as `account amount`. */
async function entriesOf(id: string) {
  const rows = await t.database.db
    .select({
      seq: ledgerEntries.seq,
      kind: ledgerEntries.kind,
      account: ledgerPostings.account,
      amount: ledgerPostings.amount,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerPostings, eq(ledgerPostings.entryId, ledgerEntries.id))
    .where(eq(ledgerEntries.transactionId, id))
    .orderBy(ledgerEntries.seq, ledgerPostings.id);
  const entries = new Map<number, { kind: string; postings: string[] }>();
  for (const r of rows) {
    const entry = entries.get(r.seq) ?? { kind: r.kind, postings: [] };
    entry.postings.push(`${r.account} ${r.amount}`);
    entries.set(r.seq, entry);
  }
  return [...entries.values()];
}

const balanceOf = async (who: SignedIn) => (await get(who, '/api/balance')).json();
const statsOf = async (who: SignedIn) => (await get(who, '/api/stats')).json();

describe('every movement of a card posts once', () => {
  it('credits the seller once at approval, however many identical saves are sent at once', async () => {
    const { who, id } = await newCard();
    const { updatedAt } = (await get(owner, `/api/admin/transactions/${id}`)).json();
    const saves = await Promise.all(
      Array.from({ length: 10 }, () =>
        as(t.app, owner, {
          method: 'PATCH',
          url: `/api/admin/transactions/${id}`,
          payload: { status: 'processing', expectedUpdatedAt: updatedAt },
        }),
      ),
    );
    expect(saves.map((s) => s.statusCode)).toContain(200);
    expect(await entriesOf(id)).toEqual([
      { kind: 'card_approved', postings: ['cards_bought 9100', 'seller_payable -9100'] },
    ]);
    expect(await balanceOf(who)).toEqual({
      owed: '91.00',
      onTheWay: '0.00',
      paid: '0.00',
      owedBack: '0.00',
    });
    expect(await statsOf(who)).toMatchObject({ totalEarned: '0.00', awaitingPayment: '91.00' });
  });

  it('pays once when the same batch is marked sent ten times at once', async () => {
    const { who, id } = await newCard();
    expect((await review(id, { status: 'processing' })).statusCode).toBe(200);
    const finance = await signInAs(t, 'finance');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        as(t.app, finance, {
          method: 'POST',
          url: '/api/admin/payouts/mark-sent',
          payload: { items: [{ id, amount: '91.00' }], payoutReference: 'PP-1001' },
        }),
      ),
    );
    expect(answers.map((a) => a.json().sent.length).reduce((a, b) => a + b)).toBe(1);
    expect(await entriesOf(id)).toEqual([
      { kind: 'card_approved', postings: ['cards_bought 9100', 'seller_payable -9100'] },
      { kind: 'payment_sent', postings: ['seller_payable 9100', 'paid_out:paypal -9100'] },
    ]);
    expect(await balanceOf(who)).toMatchObject({ owed: '0.00', paid: '91.00' });
    const statement = (await get(who, '/api/balance/statement')).json();
    expect(
      statement.items.map((i: Record<string, string>) => [
        i.kind,
        i.description,
        i.amount,
        i.balance,
      ]),
    ).toEqual([
      ['payment_sent', 'Paid to PayPal case…', '-91.00', '0.00'],
      ['card_approved', 'Card Amazon $100.00 approved', '91.00', '91.00'],
    ]);
    expect(statement.items[0].transactionId).toBe(id);
    const csv = await get(who, '/api/balance/statement.csv');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="cardbridge-statement-/,
    );
    expect(parseCsv(csv.body.replace(/^\uFEFF/, '')).map((r) => r.slice(1, 5))).toEqual([
      ['Description', 'Money In', 'Money Out', 'Balance'],
      ['Card Amazon $100.00 approved', '91.00', '', '91.00'],
      ['Paid to PayPal case…', '', '91.00', '0.00'],
    ]);
  });

  it('reverses a payment set back and an approval taken back, never editing what was posted', async () => {
    const { who, id } = await newCard();
    expect(
      (await review(id, { status: 'completed', paymentStatus: 'sent', paymentAmount: '91.00' }))
        .statusCode,
    ).toBe(200);
    expect((await review(id, { paymentStatus: 'pending' })).statusCode).toBe(200);
    expect(await balanceOf(who)).toMatchObject({ owed: '91.00', paid: '0.00' });
    expect(
      (await review(id, { status: 'rejected', rejectionReason: 'code_invalid' })).statusCode,
    ).toBe(200);
    expect((await entriesOf(id)).map((e) => [e.kind, e.postings])).toEqual([
      ['card_approved', ['cards_bought 9100', 'seller_payable -9100']],
      ['payment_sent', ['seller_payable 9100', 'paid_out:paypal -9100']],
      ['payment_reversed', ['paid_out:paypal 9100', 'seller_payable -9100']],
      ['card_reversed', ['cards_bought -9100', 'seller_payable 9100']],
    ]);
    expect(await balanceOf(who)).toMatchObject({ owed: '0.00', paid: '0.00' });
  });

  it('credits an accepted revised offer at its amount', async () => {
    const { who, id } = await newCard();
    expect((await review(id, { status: 'processing' })).statusCode).toBe(200);
    const offer = await as(t.app, owner, {
      method: 'POST',
      url: `/api/admin/transactions/${id}/offer`,
      payload: { verifiedValue: '60', note: 'The card holds $60' },
    });
    expect(offer.statusCode).toBe(201);
    // While the customer decides, nothing is owed for the card.
    expect(await balanceOf(who)).toMatchObject({ owed: '0.00' });
    const accepted = await as(t.app, who, {
      method: 'POST',
      url: `/api/transactions/${id}/offer/accept`,
    });
    expect(accepted.statusCode).toBe(200);
    expect((await entriesOf(id)).map((e) => [e.kind, e.postings[1]])).toEqual([
      ['card_approved', 'seller_payable -9100'],
      ['card_reversed', 'seller_payable 9100'],
      ['offer_accepted', 'seller_payable -5460'],
    ]);
    expect(await statsOf(who)).toMatchObject({ awaitingPayment: '54.60' });
  });
});

describe('the staff books', () => {
  it('balance, and are for owners and finance only', async () => {
    const { id } = await newCard();
    await review(id, { status: 'completed', paymentStatus: 'sent', paymentAmount: '91.00' });
    const finance = await signInAs(t, 'finance');
    const trial = (await get(finance, '/api/admin/ledger/trial-balance')).json();
    expect(trial.balanced).toBe(true);
    expect(trial.debits).toBe(trial.credits);
    const cents = trial.accounts.map((a: { balance: string }) =>
      Math.round(Number(a.balance) * 100),
    );
    expect(cents.reduce((a: number, b: number) => a + b, 0)).toBe(0);
    expect(trial.accounts.map((a: { code: string }) => a.code)).toEqual(
      expect.arrayContaining(['seller_payable', 'cards_bought', 'paid_out:paypal']),
    );
    for (const role of ['reviewer', 'support'] as const) {
      const staff = await signInAs(t, role);
      for (const url of [
        '/api/admin/ledger/trial-balance',
        '/api/admin/ledger/entries',
        '/api/admin/ledger/books',
        '/api/admin/ledger/export.csv?from=2026-01-01&to=2026-12-31',
      ]) {
        const refused = await get(staff, url);
        expect(refused.statusCode, `${role} ${url}`).toBe(403);
        expect(refused.json().code).toBe('forbidden_role');
      }
    }
  });

  it('show what is owed by payout method, money out by day and what is owed back by age', async () => {
    const { id } = await newCard();
    await review(id, { status: 'processing' });
    const paid = await newCard();
    await review(paid.id, { status: 'completed', paymentStatus: 'sent', paymentAmount: '91.00' });
    const books = (await get(owner, '/api/admin/ledger/books')).json();
    const owed = Number(books.owedTotal);
    expect(books.owedByMethod.map((m: { label: string }) => m.label)).toContain('PayPal');
    expect(
      books.owedByMethod.reduce((sum: number, m: { amount: string }) => sum + Number(m.amount), 0),
    ).toBeCloseTo(owed, 2);
    const stats = await t.database.db.execute<{ awaiting: string }>(sql`
      select coalesce(sum(coalesce(payment_amount, expected_payout)) filter (
        where status in ('processing', 'completed') and payment_status = 'pending'
          and offer_status is distinct from 'pending'), 0)::numeric(12,2)::text as awaiting
      from transactions`);
    expect(books.owedTotal).toBe(stats.rows[0]!.awaiting);
    const today = new Date(t.now()).toISOString().slice(0, 10);
    expect(books.outByDay.at(-1)).toMatchObject({ day: today });
    expect(Number(books.outByDay.at(-1).amount)).toBeGreaterThanOrEqual(91);
    expect(books.owedBackAged).toEqual({ days0to30: '0.00', days31to90: '0.00', over90: '0.00' });
  });

  it('list a card entries with their postings, and export every posting of a range', async () => {
    const { id, who } = await newCard();
    await review(id, {
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
      payoutReference: 'BANK-77',
    });
    const entries = (await get(owner, `/api/admin/ledger/entries?transactionId=${id}`)).json();
    expect(entries.items.map((e: { kind: string }) => e.kind)).toEqual([
      'payment_sent',
      'card_approved',
    ]);
    expect(entries.items[0].postings).toEqual([
      { account: 'seller_payable', customerId: who.user.id, amount: '91.00' },
      { account: 'paid_out:paypal', customerId: null, amount: '-91.00' },
    ]);
    expect((await get(owner, '/api/admin/ledger/entries?transactionId=nope')).statusCode).toBe(400);

    const today = new Date(t.now()).toISOString().slice(0, 10);
    const response = await get(owner, `/api/admin/ledger/export.csv?from=${today}&to=${today}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(response.body.replace(/^\uFEFF/, ''));
    expect(header).toEqual([
      'Date',
      'Entry',
      'Kind',
      'Account',
      'Debit',
      'Credit',
      'Memo',
      'Card',
      'Reference',
    ]);
    const mine = rows.filter((r) => r[7] === id);
    expect(mine.map((r) => [r[2], r[3], r[4], r[5], r[8]])).toEqual([
      ['card_approved', 'cards_bought', '91.00', '', ''],
      ['card_approved', `seller_payable:${who.user.id}`, '', '91.00', ''],
      ['payment_sent', `seller_payable:${who.user.id}`, '91.00', '', 'BANK-77'],
      ['payment_sent', 'paid_out:paypal', '', '91.00', 'BANK-77'],
    ]);
    const total = (column: number) =>
      rows.reduce((sum, r) => sum + Math.round(Number(r[column] || 0) * 100), 0);
    expect(total(4)).toBe(total(5));
    for (const bad of [
      'from=2026-13-01&to=2026-12-31',
      'from=2026-02-30&to=2026-03-01',
      'to=2026-01-01',
      'from=2026-02-01&to=2026-01-01',
    ]) {
      expect((await get(owner, `/api/admin/ledger/export.csv?${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it('ledger check finds a card whose amount was changed behind the books', async () => {
    const { id } = await newCard();
    await review(id, { status: 'processing' });
    expect((await checkLedger(t.database.db)).map(describeMismatch)).toEqual([]);
    await t.database.db
      .update(transactions)
      .set({ paymentAmount: '95.00' })
      .where(eq(transactions.id, id));
    expect((await checkLedger(t.database.db)).map(describeMismatch)).toEqual([
      `card ${id}: credited to its seller 91.00 in the books, 95.00 expected`,
    ]);
    // The daily check mails what it found to those who keep the books, and to nobody else.
    const finance = await signInAs(t, 'finance');
    const reviewer = await signInAs(t, 'reviewer');
    const found = await t.app.run(checkBooks);
    expect(found.map(describeMismatch)).toEqual([
      `card ${id}: credited to its seller 91.00 in the books, 95.00 expected`,
    ]);
    const mails = await t.database.db
      .select({ to: mailOutbox.toAddress, subject: mailOutbox.subject, text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(eq(mailOutbox.template, 'staff-alert'));
    const to = mails.filter((m) => m.subject === 'Cardbridge: the books do not match the cards');
    expect(to.map((m) => m.to)).toEqual(
      expect.arrayContaining([finance.user.email, owner.user.email]),
    );
    expect(to.map((m) => m.to)).not.toContain(reviewer.user.email);
    expect(to[0]!.text).toContain(
      `card ${id}: credited to its seller 91.00 in the books, 95.00 expected`,
    );
    // Put right the way a mistake is: through the app, which posts the difference.
    await t.database.db
      .update(transactions)
      .set({ paymentAmount: null })
      .where(eq(transactions.id, id));
    expect(await checkLedger(t.database.db)).toEqual([]);
  });
});

describe('the figures the dashboard showed before the books', () => {
  it('are what the books answer now', async () => {
    const rows = await figuresFromCards(t.database.db);
    expect(rows.length).toBeGreaterThan(5);
    const { figureColumns: _, sellerFigures } = await import('../../src/server/modules/ledger');
    const figures = await sellerFigures(
      t.database.db,
      rows.map((r) => r.user_id),
    );
    for (const r of rows) {
      const f = figures.get(r.user_id) ?? { paid: 0, owed: 0 };
      expect([(f.paid / 100).toFixed(2), (f.owed / 100).toFixed(2)], r.user_id).toEqual([
        r.earned,
        r.awaiting,
      ]);
    }
  });
});

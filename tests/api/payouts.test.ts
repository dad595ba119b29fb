import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, transactions } from '../../src/server/db/schema';
import { parseCsv } from '../parse-csv';
import { setUpAppWithStaff, withAppAndStaff } from './builders';
import {
  addPaymentMethod,
  as,
  reviewCard,
  type SignedIn,
  signInAs,
  signUp,
  submitCard,
  uniqueEmail,
} from './helpers';

const { t, staff } = setUpAppWithStaff({}, 'payer@example.com');

const get = (who: SignedIn | undefined, url: string, app = t.app) =>
  as(app, who, { method: 'GET', url });
const markSent = (who: SignedIn | undefined, items: object[], app = t.app) =>
  as(app, who, { method: 'POST', url: '/api/admin/payouts/mark-sent', payload: { items } });
const review = (id: string, payload: object, app = t.app, reviewer = staff) =>
  reviewCard(app, reviewer, id, payload);
const rowOf = async (id: string) =>
  (await t.database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;

/** A customer's card of `cardValue` paid to a method of theirs, set to `status` by staff. */
async function card(
  options: {
    who?: SignedIn;
    method?: object;
    cardValue?: string;
    status?: string;
    payment?: object;
  } = {},
  app = t.app,
  reviewer = staff,
) {
  const who = options.who ?? (await signUp(app));
  const method = await addPaymentMethod(app, who, options.method);
  const response = await submitCard(app, who, {
    cardValue: options.cardValue ?? '100',
    paymentMethodId: method.id,
  });
  expect(response.statusCode).toBe(201);
  const created = response.json() as { id: string; expectedPayout: string };
  if (options.status) {
    const saved = await review(
      created.id,
      { status: options.status, ...options.payment },
      app,
      reviewer,
    );
    expect(saved.statusCode).toBe(200);
  }
  return { who, id: created.id, expectedPayout: created.expectedPayout };
}

describe('who may use payouts', () => {
  it('answers 401 signed out and 403 to customers, changing nothing', async () => {
    const customer = await signUp(t.app);
    const { id, expectedPayout } = await card({ status: 'processing' });
    const calls = [
      ['GET', '/api/admin/payouts', undefined],
      ['GET', '/api/admin/payouts.csv', undefined],
      ['POST', '/api/admin/payouts/mark-sent', { items: [{ id, amount: expectedPayout }] }],
    ] as const;
    for (const [method, url, payload] of calls) {
      expect((await as(t.app, undefined, { method, url, payload })).statusCode, url).toBe(401);
      const forbidden = await as(t.app, customer, { method, url, payload });
      expect(forbidden.statusCode, url).toBe(403);
      expect(forbidden.json()).toEqual({ message: 'Admin access required' });
    }
    expect((await rowOf(id)).paymentStatus).toBe('pending');
  });
});

describe('GET /api/admin/payouts', () => {
  it('lists cards approved for payment, grouped by method type with counts and totals', async () => {
    await withAppAndStaff(async (fresh, payer) => {
      const make = (options: Parameters<typeof card>[0]) => card(options, fresh.app, payer);
      const bank = {
        type: 'bank_transfer',
        accountName: 'Dana Diaz',
        accountNumber: '12345678',
        bankName: 'First Bank',
        routingNumber: '021000021',
      };
      const a = await make({ status: 'processing', cardValue: '100' }); // PayPal, 91.00 expected
      const b = await make({
        status: 'completed',
        cardValue: '50',
        payment: { paymentAmount: '46.10', overValueReason: 'A bonus' },
      });
      const c = await make({ status: 'processing', cardValue: '200', method: bank });
      await make({}); // pending: not reviewed yet
      await make({ status: 'rejected', payment: { rejectionReason: 'code_invalid' } });
      await make({ status: 'completed', payment: { paymentStatus: 'sent' } });
      await make({ status: 'processing', payment: { paymentStatus: 'confirmed' } });

      const response = await get(payer, '/api/admin/payouts', fresh.app);
      expect(response.statusCode).toBe(200);
      const payouts = response.json();
      expect(payouts).toMatchObject({ count: 3, total: '319.10', more: 0 });
      expect(
        payouts.groups.map((g: { type: string; label: string; count: number; total: string }) => [
          g.type,
          g.label,
          g.count,
          g.total,
        ]),
      ).toEqual([
        ['paypal', 'PayPal', 2, '137.10'],
        ['bank_transfer', 'Bank Transfer', 1, '182.00'],
      ]);
      // Oldest first; the amount is what staff set, else the payout quoted at submission.
      expect(
        payouts.groups[0].cards.map((x: { id: string; amount: string }) => [x.id, x.amount]),
      ).toEqual([
        [a.id, '91.00'],
        [b.id, '46.10'],
      ]);
      expect(payouts.groups[1].cards[0]).toMatchObject({
        id: c.id,
        amount: '182.00',
        paymentAmount: null,
        expectedPayout: '182.00',
        userEmail: expect.stringContaining('@example.com'),
        userFirstName: 'Casey',
        paymentMethodType: 'bank_transfer',
        paymentMethodAccountName: 'Dana Diaz',
        paymentMethodAccountNumber: '12345678',
        paymentMethodBankName: 'First Bank',
        paymentMethodRoutingNumber: '021000021',
      });
    });
  });
});

describe('GET /api/admin/payouts.csv', () => {
  it('exports UTF-8 CSV with every cell quoted and formula cells escaped, and audits the export', async () => {
    const named = async (firstName: string, lastName: string) =>
      signUp(t.app, { firstName, lastName, email: uniqueEmail('csv') });
    const formula = await card({
      who: await named('=HYPERLINK("http://x")', 'Smith'),
      status: 'processing',
      method: { type: 'revolut', accountName: '+1', identifier: '@SUM(A1:A9)' },
    });
    const minus = await card({ who: await named('-1', 'Zoë'), status: 'completed' });

    const response = await get(staff, '/api/admin/payouts.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="cardbridge-payouts-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers['cache-control']).toBe('no-store');
    const raw = response.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.subarray(3).toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    // Every cell quoted: each line starts and ends with a quote.
    for (const line of text.trimEnd().split('\r\n')) expect(line).toMatch(/^".*"$/);

    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      'Card ID',
      'Submitted',
      'Customer Name',
      'Customer Email',
      'Payment Method',
      'Account Name',
      'Identifier',
      'Account Number',
      'Bank Name',
      'Routing Number',
      'Card Type',
      'Card Value',
      'Amount',
    ]);
    const rowOfCard = (id: string) => rows.find((r) => r[0] === id)!;
    const f = rowOfCard(formula.id);
    expect(f[2]).toBe(`'=HYPERLINK("http://x") Smith`);
    expect(f[4]).toBe('Revolut');
    expect(f[5]).toBe("'+1");
    expect(f[6]).toBe("'@SUM(A1:A9)");
    expect(f[12]).toBe('91.00');
    const m = rowOfCard(minus.id);
    expect(m[2]).toBe("'-1 Zoë");
    expect(m[4]).toBe('PayPal');
    expect(m[6]).toBe('casey@example.com');
    // No cell anywhere starts with a character a spreadsheet would run.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);

    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'payouts'), eq(auditLog.action, 'export')));
    expect(audit).toMatchObject({ actorEmail: 'payer@example.com', entityId: null });
    expect((audit!.changes as { cards: { to: number } }).cards.to).toBe(rows.length);
  });
});

describe('POST /api/admin/payouts/mark-sent', () => {
  it('marks the cards still owed as sent and completed, audits each and tells each customer', async () => {
    const first = await card({ status: 'processing' });
    const second = await card({
      status: 'completed',
      payment: { paymentAmount: '93.50', overValueReason: 'A bonus' },
    });
    const response = await markSent(staff, [
      { id: first.id, amount: '91' },
      { id: second.id, amount: '93.50' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      sent: [
        { id: first.id, amount: '91.00' },
        { id: second.id, amount: '93.50' },
      ],
      total: '184.50',
      skipped: [],
    });
    expect(await rowOf(first.id)).toMatchObject({
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
    });
    expect(await rowOf(second.id)).toMatchObject({
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '93.50',
    });

    const detail = (await get(staff, `/api/admin/transactions/${first.id}`)).json();
    expect(detail.audit).toHaveLength(2);
    expect(detail.audit[0]).toMatchObject({
      actorEmail: 'payer@example.com',
      action: 'payout_sent',
      changes: {
        status: { from: 'processing', to: 'completed' },
        paymentStatus: { from: 'pending', to: 'sent' },
        paymentAmount: { from: null, to: '91.00' },
      },
    });
    const secondAudit = (await get(staff, `/api/admin/transactions/${second.id}`)).json().audit;
    expect(secondAudit[0].changes).toEqual({ paymentStatus: { from: 'pending', to: 'sent' } });

    const [notice] = (await get(first.who, '/api/notifications')).json().items;
    expect(notice).toMatchObject({
      title: 'Amazon card of $100.00: Completed',
      body: 'Status: Completed. Payment: Payment Sent. Payment amount: $91.00.',
    });
    const [secondNotice] = (await get(second.who, '/api/notifications')).json().items;
    expect(secondNotice.body).toBe('Payment: Payment Sent. Payment amount: $93.50.');
    const [mine] = (await get(first.who, '/api/transactions')).json();
    expect(mine).toMatchObject({ status: 'completed', paymentStatus: 'sent' });
    expect((await get(first.who, '/api/stats')).json().totalEarned).toBe('91.00');

    const ids = (await get(staff, '/api/admin/payouts'))
      .json()
      .groups.flatMap((g: { cards: { id: string }[] }) => g.cards.map((x) => x.id));
    expect(ids).not.toContain(first.id);
    expect(ids).not.toContain(second.id);
  });

  it('records one payout reference per batch and the time paid; the customer sees both', async () => {
    const first = await card({ status: 'processing' });
    const second = await card({ status: 'completed', payment: { payoutReference: 'OLD-1' } });
    const stats = (await get(first.who, '/api/stats')).json();
    expect(stats).toMatchObject({ totalEarned: '0.00', awaitingPayment: '91.00' });

    const tooLong = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/payouts/mark-sent',
      payload: { items: [{ id: first.id, amount: '91.00' }], payoutReference: 'x'.repeat(101) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json().errors)).toEqual(['payoutReference']);
    expect((await rowOf(first.id)).paymentStatus).toBe('pending');

    const before = Date.now();
    const response = await as(t.app, staff, {
      method: 'POST',
      url: '/api/admin/payouts/mark-sent',
      payload: {
        items: [
          { id: first.id, amount: '91.00' },
          { id: second.id, amount: '91.00' },
        ],
        payoutReference: ' ACH-20260301-17 ',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().sent).toHaveLength(2);
    for (const paid of [first, second]) {
      const [mine] = (await get(paid.who, '/api/transactions')).json();
      expect(mine).toMatchObject({ paymentStatus: 'sent', payoutReference: 'ACH-20260301-17' });
      expect(new Date(mine.paidAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect((await get(paid.who, '/api/stats')).json()).toMatchObject({
        totalEarned: '91.00',
        awaitingPayment: '0.00',
      });
    }
    const audit = (await get(staff, `/api/admin/transactions/${second.id}`)).json().audit;
    expect(audit[0].changes.payoutReference).toEqual({ from: 'OLD-1', to: 'ACH-20260301-17' });

    // Without a reference the batch keeps none.
    const third = await card({ status: 'processing' });
    expect((await markSent(staff, [{ id: third.id, amount: '91.00' }])).statusCode).toBe(200);
    const [plain] = (await get(third.who, '/api/transactions')).json();
    expect(plain.payoutReference).toBeNull();
    expect(plain.paidAt).not.toBeNull();
  });

  it('leaves every card no longer owed, or owed another amount, as it was and says why', async () => {
    const pending = await card();
    const paid = await card({ status: 'processing' });
    const changed = await card({ status: 'processing' });
    const ok = await card({ status: 'processing' });
    expect((await markSent(staff, [{ id: paid.id, amount: '91.00' }])).statusCode).toBe(200);
    // Another reviewer set an amount after the list was loaded.
    await review(changed.id, { paymentAmount: '95.00', overValueReason: 'A bonus' });
    const missing = randomUUID();

    const response = await markSent(staff, [
      { id: pending.id, amount: '91.00' },
      { id: paid.id, amount: '91.00' },
      { id: changed.id, amount: '91.00' },
      { id: missing, amount: '1.00' },
      { id: ok.id, amount: '91.00' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      sent: [{ id: ok.id, amount: '91.00' }],
      total: '91.00',
      skipped: [
        {
          id: pending.id,
          reason: 'not_payable',
          message: 'Not waiting for payment: Pending Review, Payment Pending',
        },
        {
          id: paid.id,
          reason: 'not_payable',
          message: 'Not waiting for payment: Completed, Payment Sent',
        },
        {
          id: changed.id,
          reason: 'amount_changed',
          message: 'The amount to pay changed since the list was loaded',
        },
        { id: missing, reason: 'not_found', message: 'No such transaction' },
      ],
    });
    expect(await rowOf(pending.id)).toMatchObject({ status: 'pending', paymentStatus: 'pending' });
    expect(await rowOf(changed.id)).toMatchObject({
      status: 'processing',
      paymentStatus: 'pending',
      paymentAmount: '95.00',
    });
    // The review and the first payout; the second naming wrote nothing.
    const audit = (await get(staff, `/api/admin/transactions/${paid.id}`)).json().audit;
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['payout_sent', 'update']);
    expect((await get(pending.who, '/api/notifications')).json().items).toEqual([]);
  });

  it('refuses a malformed batch with 400, naming the field', async () => {
    const { id } = await card({ status: 'processing' });
    const cases: [object[], string][] = [
      [[], 'items'],
      [
        [
          { id, amount: '91.00' },
          { id, amount: '91.00' },
        ],
        'items',
      ],
      [[{ id: 'nope', amount: '91.00' }], 'items.0.id'],
      [[{ id, amount: '-5' }], 'items.0.amount'],
      [[{ id, amount: '1.234' }], 'items.0.amount'],
      [[{ id }], 'items.0.amount'],
      [Array.from({ length: 201 }, () => ({ id: randomUUID(), amount: '1.00' })), 'items'],
    ];
    for (const [items, field] of cases) {
      const response = await markSent(staff, items);
      expect(response.statusCode, JSON.stringify(items).slice(0, 80)).toBe(400);
      expect(Object.keys(response.json().errors)).toContain(field);
    }
    expect((await rowOf(id)).paymentStatus).toBe('pending');
  });

  it('pays a card once when two batches name it at the same moment', async () => {
    const { id } = await card({ status: 'processing' });
    const responses = await Promise.all([
      markSent(staff, [{ id, amount: '91.00' }]),
      markSent(staff, [{ id, amount: '91.00' }]),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const sent = responses.flatMap((r) => r.json().sent);
    expect(sent).toEqual([{ id, amount: '91.00' }]);
    const audit = (await get(staff, `/api/admin/transactions/${id}`)).json().audit;
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['payout_sent', 'update']);
  });
});

describe('marking a card paid in its edit (decision 107)', () => {
  const markPaid = (id: string, payload: object, who: SignedIn = staff) =>
    reviewCard(t.app, who, id, payload);

  it('is finance’s and owners’: a reviewer’s payment status or reference is 403 forbidden_role', async () => {
    const reviewer = await signInAs(t, 'reviewer');
    const { id } = await card({ status: 'processing' });
    for (const payload of [
      { paymentStatus: 'confirmed' },
      { paymentStatus: 'sent' },
      { payoutReference: 'TX-1' },
    ]) {
      const refused = await markPaid(id, payload, reviewer);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(403);
      expect(refused.json()).toEqual({
        message:
          'Your role (Reviewer) cannot change a card’s payment: that is for finance and owners.',
        code: 'forbidden_role',
      });
    }
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'pending', payoutReference: null });
    // The review form sends the payment status it shows: unchanged, a reviewer's save goes on.
    const saved = await markPaid(id, { status: 'completed', paymentStatus: 'pending' }, reviewer);
    expect(saved.statusCode, saved.body).toBe(200);
    const audit = (await get(staff, `/api/admin/transactions/${id}`)).json().audit;
    expect(audit.map((a: { changes: object }) => Object.keys(a.changes))).toEqual([
      ['status'],
      ['status'],
    ]);
  });

  it('follows mark-sent’s rules: only a card approved, not a pending or rejected one', async () => {
    const pending = await card();
    for (const payload of [{ paymentStatus: 'confirmed' }, { paymentStatus: 'sent' }]) {
      const refused = await markPaid(pending.id, payload);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        message: 'Not waiting for payment: Pending Review, Payment Pending',
        code: 'not_payable',
      });
    }
    const rejected = await card({
      status: 'rejected',
      payment: { rejectionReason: 'code_invalid' },
    });
    expect((await markPaid(rejected.id, { paymentStatus: 'sent' })).json().code).toBe(
      'not_payable',
    );
    const approved = await card({ status: 'processing' });
    const rejectedAndPaid = await markPaid(approved.id, {
      status: 'rejected',
      rejectionReason: 'code_invalid',
      paymentStatus: 'sent',
    });
    expect(rejectedAndPaid.json().code).toBe('not_payable');
    for (const { id } of [pending, rejected, approved]) {
      expect((await rowOf(id)).paymentStatus).toBe('pending');
    }
    // Approved, it is paid the amount due, recorded as mark-sent records it.
    const paid = await markPaid(approved.id, { paymentStatus: 'sent' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await rowOf(approved.id)).toMatchObject({
      status: 'processing',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
      paidAt: expect.any(Date),
    });
  });

  it('pays a card once when its edit and mark-sent pay it at the same moment', async () => {
    const { id } = await card({ status: 'processing' });
    const [edited, marked] = await Promise.all([
      markPaid(id, { paymentStatus: 'sent' }),
      markSent(staff, [{ id, amount: '91.00' }]),
    ]);
    // The edit read the card before either paid it: after mark-sent, it is a stale save (409).
    expect([200, 409]).toContain(edited.statusCode);
    expect(marked.statusCode).toBe(200);
    const audit = (await get(staff, `/api/admin/transactions/${id}`)).json().audit as {
      changes: { paymentStatus?: { from: string } };
    }[];
    expect(audit.filter((a) => a.changes.paymentStatus?.from === 'pending')).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ paymentStatus: 'sent', paymentAmount: '91.00' });
  });
});

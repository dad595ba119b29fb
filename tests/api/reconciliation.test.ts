import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, transactions } from '../../src/server/db/schema';
import { checkLedger } from '../../src/server/modules/ledger';
import { markSent, setUpAppWithStaff, submittedCard } from './builders';
import { as, multipart, reviewCard, type SignedIn, signInAs } from './helpers';

const { t, staff: owner } = setUpAppWithStaff();

const get = (who: SignedIn | undefined, url: string) => as(t.app, who, { method: 'GET', url });

/** A form with the payment type first, then the file, as the portal's upload sends it. */
function statementForm(csv: string, paymentType = 'paypal') {
  const boundary = '----cardbridgestatement';
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="paymentType"\r\n\r\n${paymentType}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="paypal.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
  );
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const importStatement = (who: SignedIn, csv: string, paymentType?: string) =>
  as(t.app, who, {
    method: 'POST',
    url: '/api/admin/reconciliation/statements',
    ...statementForm(csv, paymentType),
  });

/** A $100 Amazon card paid 91.00 through PayPal under `reference`. */
async function paidCard(reference: string, value = '100') {
  const { who, id, expectedPayout } = await submittedCard(t, { cardValue: value });
  expect((await reviewCard(t.app, owner, id, { status: 'processing' })).statusCode).toBe(200);
  await markSent(t, owner, id, { amount: expectedPayout, reference });
  return { id, who };
}

const day = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const statusOf = async (id: string) =>
  (await t.database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!
    .paymentStatus;

describe('reconciling a payout method statement', () => {
  it('confirms the payments its lines show, and lists what it could not match', async () => {
    const matching = await paidCard('PP-RECON-1');
    const batchA = await paidCard('PP-BATCH-7');
    const batchB = await paidCard('PP-BATCH-7', '50'); // 45.50
    const missing = await paidCard('PP-RECON-MISSING');
    const finance = await signInAs(t, 'finance');
    const csv = [
      'Date,Amount,Reference,Payee',
      `${day(-1)},-91.00,PP-RECON-1,casey@example.com`,
      `${day(0)},"$136.50",pp-batch-7,`,
      `${day(5)},12.00,PP-NO-SUCH,someone`,
    ].join('\n');
    const response = await importStatement(finance, csv);
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json();
    expect(result).toMatchObject({
      paymentType: 'paypal',
      fileName: 'paypal.csv',
      lines: 3,
      matched: 2,
    });
    expect(
      result.matchedLines.map((l: { lineNo: number; transactionIds: string[] }) => [
        l.lineNo,
        l.transactionIds.sort(),
      ]),
    ).toEqual([
      [2, [matching.id]],
      [3, [batchA.id, batchB.id].sort()],
    ]);
    expect(result.unmatchedLines).toEqual([
      { lineNo: 4, date: day(5), amount: '12.00', reference: 'PP-NO-SUCH', payee: 'someone' },
    ]);
    expect(
      result.unmatchedPayments.map((p: { transactionId: string }) => p.transactionId),
    ).toContain(missing.id);
    expect(
      result.unmatchedPayments.find(
        (p: { transactionId: string }) => p.transactionId === missing.id,
      ),
    ).toMatchObject({
      amount: '91.00',
      reference: 'PP-RECON-MISSING',
    });
    for (const card of [matching, batchA, batchB])
      expect(await statusOf(card.id)).toBe('confirmed');
    expect(await statusOf(missing.id)).toBe('sent');
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, matching.id));
    expect(audit.map((a) => a.changes)).toContainEqual({
      paymentStatus: { from: 'sent', to: 'confirmed' },
      statement: { from: null, to: result.id },
    });
    const notices = (await get(matching.who, '/api/notifications')).json().items;
    expect(notices[0].body).toContain('Payment: Payment Confirmed.');
    expect(await checkLedger(t.database.db)).toEqual([]);
  });

  it('matches nothing twice, even when the same file is imported at once', async () => {
    const card = await paidCard('PP-TWICE-1');
    const csv = `date,amount,reference\n${day(0)},91.00,PP-TWICE-1\n`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => importStatement(owner, csv)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(answers.map((a) => a.json().matched).sort()).toEqual([0, 0, 0, 0, 1]);
    expect(await statusOf(card.id)).toBe('confirmed');
    const again = (await importStatement(owner, csv)).json();
    expect(again).toMatchObject({
      matched: 0,
      unmatchedLines: [expect.objectContaining({ reference: 'PP-TWICE-1' })],
    });
  });

  it('refuses a file it cannot read whole, naming the line, and keeps nothing of it', async () => {
    const before = (await get(owner, '/api/admin/reconciliation/statements')).json().length;
    const cases: [string, string, string][] = [
      [
        `${day(0)},91.00,REF\n2026-02-30,5.00,REF2`,
        'paypal',
        'Line 2: "2026-02-30" is not a date (YYYY-MM-DD)',
      ],
      [`${day(0)},ninety,REF`, 'paypal', 'Line 1: "ninety" is not an amount'],
      [
        `${day(0)},91.00,`,
        'paypal',
        'Line 1: the reference is missing or longer than 200 characters',
      ],
      [`${day(0)},91.00,REF`, 'gold_bars', 'Choose the payment method the statement is for'],
      ['date,amount,reference\n', 'paypal', 'The file has no lines'],
    ];
    for (const [csv, type, message] of cases) {
      const response = await importStatement(owner, csv, type);
      expect(response.statusCode, csv).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect((await get(owner, '/api/admin/reconciliation/statements')).json()).toHaveLength(before);
    const noFile = await as(t.app, owner, {
      method: 'POST',
      url: '/api/admin/reconciliation/statements',
      ...multipart(Buffer.from('x'), 'a.csv', 'text/csv', 'other'),
    });
    expect(noFile.statusCode).toBe(400);
  });

  it('is for finance and owners only', async () => {
    for (const role of ['reviewer', 'support'] as const) {
      const staff = await signInAs(t, role);
      const response = await importStatement(staff, `${day(0)},1.00,X`);
      expect(response.statusCode, role).toBe(403);
      expect(response.json().code).toBe('forbidden_role');
    }
  });
});

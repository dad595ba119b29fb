import { mkdirSync, writeFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { transactions } from '../../src/server/db/schema';
import { maskedIdentifier, wrapText } from '../../src/server/modules/cards/receipt';
import { pdfText } from '../pdf-text';
import {
  as,
  reviewCard,
  type SignedIn,
  setUpTestApp,
  signInStaff,
  signUp,
  submitCard,
} from './helpers';

const t = setUpTestApp();

async function completedCardWithBank(who: SignedIn) {
  const method = await as(t.app, who, {
    method: 'POST',
    url: '/api/payment-methods',
    payload: {
      type: 'bank_transfer',
      accountName: '李小龙',
      accountNumber: '9876543210',
      bankName: '中国银行 Bank of China',
      routingNumber: '021000021',
    },
  });
  const created = await submitCard(t.app, who, { paymentMethodId: method.json().id });
  const id = created.json().id as string;
  await t.database.db
    .update(transactions)
    .set({
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
      createdAt: new Date('2026-03-01T02:30:00Z'),
    })
    .where(eq(transactions.id, id));
  return id;
}

describe('the receipt', () => {
  it('prints a Chinese name, a long email whole, a masked account, in the viewer’s time zone', async () => {
    const email = `xiaolong.li.with.a.very.long.mailbox.name.${Date.now()}@subdomain.example-company.com`;
    const who = await signUp(t.app, { email, firstName: '小龙', lastName: '李' });
    const id = await completedCardWithBank(who);
    const response = await as(t.app, who, {
      method: 'GET',
      url: `/api/transactions/${id}/receipt?tz=${encodeURIComponent('Asia/Shanghai')}`,
    });
    expect(response.statusCode).toBe(200);
    mkdirSync('screenshots', { recursive: true });
    writeFileSync('screenshots/receipt-sample.pdf', response.rawPayload);

    const shown = await pdfText(response.rawPayload);
    const all = shown.join('');
    expect(all).toContain('小龙 李');
    expect(all).not.toContain('?');
    expect(all).toContain(email);
    // The email does not fit on one line: it is wrapped, not run off the page.
    expect(shown.filter((line) => email.includes(line) && line.length > 3).length).toBeGreaterThan(
      1,
    );
    expect(all).toContain('Bank Transfer, 李小龙, 中国银行 Bank of China ****3210');
    expect(all).not.toContain('9876543210');
    expect(all).toContain('Mar 01, 2026 10:30 AM GMT+8');
    expect(response.rawPayload.length).toBeLessThan(150_000);
  });

  it('is refused (409 not_paid) until payment is sent, then carries the date paid and the reference', async () => {
    const who = await signUp(t.app);
    const staff = await signInStaff(t);
    const id = (await submitCard(t.app, who)).json().id as string;
    const url = `/api/transactions/${id}/receipt`;
    const review = (payload: object) => reviewCard(t.app, staff, id, payload);

    for (const status of ['pending', 'processing', 'completed', 'rejected']) {
      const reviewed = await review({
        status,
        paymentStatus: 'pending',
        ...(status === 'rejected' ? { rejectionReason: 'code_invalid' } : {}),
      });
      expect(reviewed.statusCode).toBe(200);
      const refused = await as(t.app, who, { method: 'GET', url });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'not_paid' });
    }

    const tooLong = await review({ payoutReference: 'x'.repeat(101) });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json().errors)).toEqual(['payoutReference']);

    const before = Date.now();
    const paid = await review({
      status: 'completed',
      paymentStatus: 'sent',
      paymentAmount: '91.00',
      payoutReference: '  PP-7F3K2Q9X  ',
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().payoutReference).toBe('PP-7F3K2Q9X');
    const [mine] = (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json();
    expect(mine.payoutReference).toBe('PP-7F3K2Q9X');
    const paidAt = new Date(mine.paidAt).getTime();
    expect(paidAt).toBeGreaterThanOrEqual(before - 1000);
    expect(paidAt).toBeLessThanOrEqual(Date.now() + 1000);

    const receipt = await as(t.app, who, { method: 'GET', url });
    expect(receipt.statusCode).toBe(200);
    const shown = (await pdfText(receipt.rawPayload)).join('|');
    expect(shown).toContain('Payout reference|PP-7F3K2Q9X');
    expect(shown).toMatch(/Date paid\|[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} [AP]M UTC/);
    expect(shown).toContain('Amount paid|$91.00');

    // Confirming keeps the date paid; setting payment back to pending clears it and the receipt.
    await review({ paymentStatus: 'confirmed' });
    const [confirmed] = (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json();
    expect(confirmed.paidAt).toBe(mine.paidAt);
    await review({ paymentStatus: 'pending' });
    const [unpaid] = (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json();
    expect(unpaid.paidAt).toBeNull();
    expect((await as(t.app, who, { method: 'GET', url })).statusCode).toBe(409);
  });

  it('refuses an unknown time zone and uses UTC without one', async () => {
    const who = await signUp(t.app);
    const id = await completedCardWithBank(who);
    const url = `/api/transactions/${id}/receipt`;
    const bad = await as(t.app, who, { method: 'GET', url: `${url}?tz=Mars%2FOlympus` });
    expect(bad.statusCode).toBe(400);
    const plain = await as(t.app, who, { method: 'GET', url });
    expect((await pdfText(plain.rawPayload)).join('')).toContain('Mar 01, 2026 02:30 AM UTC');
  });

  it('shows emails and handles whole and masks numbers', () => {
    expect(maskedIdentifier('riley.stone@example.com')).toBe('riley.stone@example.com');
    expect(maskedIdentifier('$rileys')).toBe('$rileys');
    expect(maskedIdentifier('5551234567')).toBe('****4567');
    expect(maskedIdentifier(`0x${'ab'.repeat(20)}`)).toBe('0xabab...abab');
  });

  it('wraps at spaces, and inside a word only when it must', () => {
    const measure = (s: string) => s.length;
    expect(wrapText('one two three four', 9, measure)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('abcdefghijkl', 5, measure)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapText('', 5, measure)).toEqual(['']);
  });
});

import { describe, expect, it } from 'vitest';
import {
  addPaymentMethod,
  as,
  type SignedIn,
  setUpTestApp,
  sidOf,
  signInStaff,
  signUp,
  submitCard,
  uniqueEmail,
} from './helpers';

/**
 * Everything the app logs at its most talkative level, through successes and failing writes,
 * holds no password hash, no session token or id, no account number and no password.
 */
const lines: string[] = [];
const t = setUpTestApp({ logLevel: 'debug' }, { logStream: { write: (line) => lines.push(line) } });

const ACCOUNT_NUMBER = '000123456789';
const PASSWORD = 'log scan password 1';

describe('logs', () => {
  it('hold no secret after a run with failing writes', async () => {
    const secrets: string[] = [ACCOUNT_NUMBER, PASSWORD];
    const customer = await signUp(t.app, { password: PASSWORD });
    const staff = await signInStaff(t);
    for (const who of [customer, staff] as SignedIn[]) {
      const token = decodeURIComponent(who.cookie.split('=')[1]!.split(';')[0]!);
      secrets.push(token, sidOf(who.cookie));
    }
    await addPaymentMethod(t.app, customer, {
      type: 'bank_transfer',
      identifier: 'Checking',
      accountNumber: ACCOUNT_NUMBER,
      bankName: 'First Bank',
      routingNumber: '021000021',
    });
    const card = (await submitCard(t.app, customer)).json();
    await as(t.app, customer, { method: 'GET', url: '/api/transactions' });
    await t.app.inject({
      method: 'POST',
      url: '/api/signin',
      payload: { email: customer.user.email, password: `${PASSWORD}x` },
    });

    // Every write from here on fails in the database, as in an outage or a broken migration.
    for (const table of ['users', 'payment_methods', 'transactions', 'chat_messages']) {
      await t.database.pool.query(
        `alter table ${table} add constraint log_scan_fails check (false) not valid`,
      );
    }
    const failures = await Promise.all([
      t.app.inject({
        method: 'POST',
        url: '/api/signup',
        payload: { email: uniqueEmail(), password: PASSWORD, firstName: 'F', lastName: 'L' },
      }),
      as(t.app, customer, {
        method: 'POST',
        url: '/api/payment-methods',
        payload: {
          type: 'bank_transfer',
          accountName: 'Casey Customer',
          identifier: 'Savings',
          accountNumber: ACCOUNT_NUMBER,
          bankName: 'First Bank',
          routingNumber: '021000021',
        },
      }),
      as(t.app, staff, {
        method: 'PATCH',
        url: `/api/admin/transactions/${card.id}`,
        payload: {
          status: 'completed',
          paymentAmount: '91.00',
          notes: ACCOUNT_NUMBER,
          expectedUpdatedAt: card.updatedAt,
        },
      }),
      as(t.app, customer, {
        method: 'POST',
        url: '/api/chat/messages',
        payload: { message: `my account is ${ACCOUNT_NUMBER}` },
      }),
    ]);
    for (const failure of failures)
      expect(`${failure.statusCode} ${failure.body}`).toMatch(/^500 /);
    await as(t.app, customer, { method: 'POST', url: '/api/logout' });

    const log = lines.join('');
    // The failures were logged, so the scan below looked at them.
    expect(log).toContain('"code":"23514"');
    expect(log.match(/"level":50/g)?.length).toBeGreaterThanOrEqual(4);
    expect(log).not.toContain('$2b$');
    expect(log).not.toMatch(/\$2[aby]\$\d\d\$/);
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});

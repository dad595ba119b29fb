import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, transactions, validationLogs } from '../../src/server/db/schema';
import { keyringOf, newDataKeyText, parseDataKey } from '../../src/server/encryption';
import { resealCardCodes } from '../../src/server/modules/cards';
import { setUpAppWithStaff } from './builders';
import { as, type SignedIn, signInAs, signUp, submitCard } from './helpers';

/**
 * An e-gift card's code (issue 24, item 8; decision 082): sealed at rest, its last 4 characters in
 * lists and on the seller's screens, the whole code only to staff who review, each read audited,
 * and the same code on a second card flagged, whoever sells it.
 */
const lines: string[] = [];
const { t, staff } = setUpAppWithStaff({ logLevel: 'debug' }, undefined, {
  logStream: { write: (line) => lines.push(line) },
});

/** A code no other test uses. */
const newCode = () => `EGFT-${crypto.randomUUID().slice(0, 8).toUpperCase()}-7731`;

async function sell(who: SignedIn, cardCode?: unknown) {
  const response = await submitCard(t.app, who, cardCode === undefined ? {} : { cardCode });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; cardCodeLast4: string | null };
}

const checkOf = async (id: string) => {
  const [row] = await t.database.db
    .select()
    .from(validationLogs)
    .where(
      and(
        eq(validationLogs.transactionId, id),
        eq(validationLogs.validationType, 'duplicate_code'),
      ),
    );
  return row!;
};

const detail = async (who: SignedIn, id: string) =>
  (await as(t.app, who, { method: 'GET', url: `/api/admin/transactions/${id}` })).json();

describe('card codes', () => {
  it('keeps the code sealed, shows its seller and lists only the last 4, and never logs it', async () => {
    const customer = await signUp(t.app);
    const code = newCode();
    const card = await sell(customer, ` ${code.toLowerCase()} `);
    expect(card.cardCodeLast4).toBe('7731');

    const [stored] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, card.id));
    expect(stored!.cardCode).toMatch(/^v1\./);
    expect(stored!.cardCode).not.toContain('7731');
    expect(stored!.cardCodeHash).toMatch(/^[0-9a-f]{64}$/);

    const answers = await Promise.all(
      [
        [customer, '/api/transactions'],
        [customer, '/api/transactions/recent'],
        [staff, '/api/admin/transactions'],
        [staff, `/api/admin/transactions?search=${card.id.slice(0, 8)}`],
      ].map(([who, url]) => as(t.app, who as SignedIn, { method: 'GET', url: url as string })),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body.toUpperCase()).not.toContain(code.slice(5, 13));
      expect(answer.body).toContain('"cardCodeLast4":"7731"');
      expect(answer.body).not.toContain('"cardCode"');
    }
    // The staff detail carries it: the log must not, at the most talkative level.
    expect((await detail(staff, card.id)).cardCode).toBe(code.toLowerCase());
    const log = lines.join('').toUpperCase();
    expect(log).toContain(card.id.toUpperCase());
    expect(log).not.toContain(code.slice(5, 13));
  });

  it('gives the whole code only to staff who review, and audits each read', async () => {
    const customer = await signUp(t.app);
    const code = newCode();
    const card = await sell(customer, code);
    const views = () =>
      t.database.db.$count(
        auditLog,
        and(eq(auditLog.entityId, card.id), eq(auditLog.action, 'view_card_code')),
      );

    const [owner, reviewer, support, finance] = await Promise.all(
      (['owner', 'reviewer', 'support', 'finance'] as const).map((role) => signInAs(t, role)),
    );
    expect((await detail(owner!, card.id)).cardCode).toBe(code);
    expect((await detail(reviewer!, card.id)).cardCode).toBe(code);
    expect(await views()).toBe(2);
    for (const who of [support!, finance!]) {
      const seen = await detail(who, card.id);
      expect(seen.cardCode).toBeNull();
      expect(seen.cardCodeLast4).toBe('7731');
    }
    expect(await views()).toBe(2);

    const [row] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, card.id), eq(auditLog.action, 'view_card_code')))
      .limit(1);
    expect(row!.actorKind).toBe('admin');
    expect(JSON.stringify(row!.changes)).not.toContain(code.slice(5, 13));
    // The customer cannot read it through the staff route.
    const denied = await as(t.app, customer, {
      method: 'GET',
      url: `/api/admin/transactions/${card.id}`,
    });
    expect(denied.statusCode).toBe(403);
  });

  it('flags duplicate_code when another customer sold the same code, spaced and cased otherwise', async () => {
    const [first, second, third] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
    const code = newCode();
    const original = await sell(first, code);
    const copy = await sell(second, code.toLowerCase().replaceAll('-', ' '));
    const other = await sell(third, newCode());
    const none = await sell(third);

    expect((await checkOf(original.id)).status).toBe('passed');
    const flagged = await checkOf(copy.id);
    expect(flagged.status).toBe('flagged');
    expect(flagged.relatedTransactionIds).toEqual([original.id]);
    expect((await checkOf(other.id)).status).toBe('passed');
    expect((await checkOf(none.id)).details).toBe('No card code was given.');

    const queue = (
      await as(t.app, staff, { method: 'GET', url: '/api/admin/transactions?validation=flagged' })
    ).json() as { id: string; validationFlags: string[] }[];
    expect(queue.find((c) => c.id === copy.id)?.validationFlags).toContain('duplicate_code');
  });

  it('refuses a code over 64 characters, and takes an empty one as none', async () => {
    const customer = await signUp(t.app);
    const long = await submitCard(t.app, customer, { cardCode: 'A'.repeat(65) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors.cardCode).toBe('Card code / PIN must be at most 64 characters');
    expect((await sell(customer, '   ')).cardCodeLast4).toBeNull();
    // A short PIN shows nothing of itself in lists.
    expect((await sell(customer, '4821')).cardCodeLast4).toBe('');
  });

  it('keys:rotate re-seals and re-hashes codes, and a copy sold after still flags', async () => {
    const customer = await signUp(t.app);
    const code = newCode();
    const card = await sell(customer, code);
    const old = t.app.config.encryption;
    const next = keyringOf(parseDataKey(newDataKeyText())!, [...old.byId.values()]);
    const [before] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, card.id));

    expect(await resealCardCodes(t.database.db, next)).toBeGreaterThanOrEqual(1);
    expect(await resealCardCodes(t.database.db, next)).toBe(0);
    const [after] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, card.id));
    expect(after!.cardCode!.split('.')[1]).toBe(next.current.id);
    expect(after!.cardCodeHash).not.toBe(before!.cardCodeHash);

    // On the new key (the old one kept as previous), a copy still flags and the code still opens.
    (t.app.config as { encryption: typeof old }).encryption = next;
    try {
      const copy = await sell(await signUp(t.app), code);
      expect((await checkOf(copy.id)).status).toBe('flagged');
      expect((await detail(staff, card.id)).cardCode).toBe(code);
    } finally {
      (t.app.config as { encryption: typeof old }).encryption = old;
    }
  });
});

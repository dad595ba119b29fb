import { desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mappedOnce } from '../../src/server/db/rows';
import { paymentMethods, transactions } from '../../src/server/db/schema';
import { setUpTestApp, signUp, submitCard } from './helpers';

const t = setUpTestApp();

describe('rows mapped once per statement (decision 091)', () => {
  it('come out as Drizzle maps them: dates, numbers, nulls of a left join, mapped expressions', async () => {
    const customer = await signUp(t.app);
    for (let i = 0; i < 2; i++) await submitCard(t.app, customer, { cardValue: `${50 + i}.25` });
    const [first] = await t.database.db.select({ id: transactions.id }).from(transactions).limit(1);
    // One card whose method is gone: the left join's columns are null.
    await t.database.db
      .update(transactions)
      .set({ paymentMethodId: null })
      .where(eq(transactions.id, first!.id));
    const query = (name: string) =>
      t.database.db
        .select({
          ...getTableColumns(transactions),
          methodType: paymentMethods.type,
          cards: sql<number>`count(*) over ()`.mapWith(Number),
          valueText: sql<string>`${transactions.cardValue}::text`,
        })
        .from(transactions)
        .leftJoin(paymentMethods, eq(paymentMethods.id, transactions.paymentMethodId))
        .orderBy(desc(transactions.createdAt))
        .prepare(name);
    const drizzles = await query('rows-test-drizzle').execute();
    const ours = await mappedOnce(query('rows-test-ours')).execute();
    expect(drizzles).toHaveLength(2);
    expect(ours).toEqual(drizzles);
    expect(ours[0]!.createdAt).toBeInstanceOf(Date);
    expect(ours.map((row) => row.cards)).toEqual([2, 2]);
    expect(ours.some((row) => row.methodType === null)).toBe(true);
  });

  it('are refused for a nested selection, when the statement is prepared', () => {
    const nested = t.database.db
      .select({ card: { id: transactions.id } })
      .from(transactions)
      .prepare('rows-test-nested');
    expect(() => mappedOnce(nested)).toThrow(/flat fields/);
  });
});

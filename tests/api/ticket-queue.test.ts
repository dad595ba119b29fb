import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { supportTickets } from '../../src/server/db/schema';
import { setUpAppWithStaff } from './builders';
import { as, type SignedIn, signUp } from './helpers';

const { t, staff } = setUpAppWithStaff();

type Row = {
  id: string;
  userId: string;
  lastReplyBy: string;
  status: string;
  waitingSince: string;
};
const list = async (query = '') => {
  const response = await as(t.app, staff, {
    method: 'GET',
    url: `/api/admin/support-tickets${query}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return { rows: response.json() as Row[], next: response.headers['x-next-cursor'] as string };
};
const file = async (who: SignedIn, subject: string) =>
  (
    await as(t.app, who, {
      method: 'POST',
      url: '/api/support-tickets',
      payload: { email: who.user.email, subject, message: 'Where is my payout?' },
    })
  ).json() as { id: string };

/** Every page of the list, through its cursors. */
async function everything(query: string) {
  const all: Row[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(`?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`);
    all.push(...page.rows);
    cursor = page.next;
  } while (cursor);
  return all;
}

describe('staff ticket queue (decision 073)', () => {
  it('keeps another customer’s earlier ticket on page 1 after one customer files 500', async () => {
    const patient = await signUp(t.app);
    const flooder = await signUp(t.app);
    const earlier = await file(patient, 'Card still pending');
    // 500 tickets in one statement, each a moment later than the last.
    await t.database.db.execute(sql`
      insert into ${supportTickets} (user_id, email, subject, message, created_at, waiting_since)
      select ${flooder.user.id}::uuid, ${flooder.user.email}, 'Flood ' || n, 'Hello?',
             now() + n * interval '1 millisecond', now() + n * interval '1 millisecond'
        from generate_series(1, 500) as n`);

    for (const query of ['', '?awaiting=staff', '?status=open']) {
      const { rows } = await list(query);
      expect(rows).toHaveLength(25);
      expect(rows[0]!.id, query).toBe(earlier.id);
    }
  });

  it('lists the tickets awaiting staff first, longest-waiting first, then the rest newest first, and pages through all', async () => {
    const customer = await signUp(t.app);
    const answered = await file(customer, 'Answered');
    const waiting = await file(customer, 'Waiting');
    await as(t.app, staff, {
      method: 'POST',
      url: `/api/admin/support-tickets/${answered.id}/replies`,
      payload: { message: 'Paid this morning.' },
    });
    const all = await everything('');
    const ids = all.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const total = await t.database.db.$count(supportTickets);
    expect(ids).toHaveLength(total);
    const awaiting = (r: Row) =>
      r.lastReplyBy === 'user' && ['open', 'in_progress'].includes(r.status);
    const firstRest = all.findIndex((r) => !awaiting(r));
    expect(all.slice(0, firstRest).every(awaiting)).toBe(true);
    expect(all.slice(firstRest).some(awaiting)).toBe(false);
    const times = all.slice(0, firstRest).map((r) => r.waitingSince);
    expect(times).toEqual([...times].sort());
    expect(ids.indexOf(waiting.id)).toBeLessThan(firstRest);
    expect(ids.indexOf(answered.id)).toBeGreaterThanOrEqual(firstRest);

    const onlyAwaiting = await everything('&awaiting=staff');
    expect(onlyAwaiting.every(awaiting)).toBe(true);
    expect(onlyAwaiting.map((r) => r.id)).not.toContain(answered.id);
    expect(onlyAwaiting).toHaveLength(firstRest);

    // The customer writes again: the ticket waits from that message, after the older ones.
    await as(t.app, customer, {
      method: 'POST',
      url: `/api/support-tickets/${answered.id}/replies`,
      payload: { message: 'Not received.' },
    });
    const after = await everything('&awaiting=staff');
    const again = after.find((r) => r.id === answered.id)!;
    expect(again.waitingSince > after.find((r) => r.id === waiting.id)!.waitingSince).toBe(true);
  });

  it('refuses an unknown awaiting value with 400', async () => {
    const response = await as(t.app, staff, {
      method: 'GET',
      url: '/api/admin/support-tickets?awaiting=customer',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('awaiting must be one of: staff, all');
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { transactions } from '../../src/server/db/schema';
import {
  as,
  type SignedIn,
  setUpStaff,
  setUpTestApp,
  signInAs,
  signUp,
  submitCard,
} from './helpers';

/** Issue 21, items 5 and 6: the figures checked against seeded cards computed by hand. */
const t = setUpTestApp();
const staff = setUpStaff(t);

const get = (who: SignedIn, url: string) => as(t.app, who, { method: 'GET', url });
const RANGE = '/api/admin/analytics?from=2026-01-10&to=2026-01-12';
const today = () => new Date(t.now()).toISOString().slice(0, 10);

let seller: SignedIn;
const at = (iso: string) => new Date(iso);

describe('analytics', () => {
  it('counts cards, value, money paid, the approval rate, medians, brands and decisions', async () => {
    seller = await signUp(t.app);
    const card = async (cardType: string, cardValue: string) => {
      const response = await submitCard(t.app, seller, { cardType, cardValue });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    const ids = [
      await card('Amazon', '100'),
      await card('Target', '50'),
      await card('Amazon', '200'),
      await card('Walmart', '80'),
    ];
    const review = async (id: string, payload: object) =>
      expect(
        (await as(t.app, staff, { method: 'PATCH', url: `/api/admin/transactions/${id}`, payload }))
          .statusCode,
      ).toBe(200);
    await review(ids[0]!, { status: 'processing' });
    await review(ids[1]!, { status: 'rejected', rejectionReason: 'code_invalid' });
    await review(ids[2]!, { status: 'completed', paymentStatus: 'sent', paymentAmount: '182.00' });
    // Their times, set by hand: minutes to decide 30, 120 and 10; 1,440 minutes to pay.
    const times: [string, Partial<typeof transactions.$inferInsert>][] = [
      [
        ids[0]!,
        { createdAt: at('2026-01-10T10:00:00Z'), firstDecisionAt: at('2026-01-10T10:30:00Z') },
      ],
      [
        ids[1]!,
        { createdAt: at('2026-01-10T12:00:00Z'), firstDecisionAt: at('2026-01-10T14:00:00Z') },
      ],
      [
        ids[2]!,
        {
          createdAt: at('2026-01-11T09:00:00Z'),
          firstDecisionAt: at('2026-01-11T09:10:00Z'),
          paidAt: at('2026-01-12T09:00:00Z'),
        },
      ],
      [ids[3]!, { createdAt: at('2026-01-12T08:00:00Z') }],
    ];
    for (const [id, set] of times) {
      await t.database.db.update(transactions).set(set).where(eq(transactions.id, id));
    }

    const answer = await get(staff, RANGE);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      from: '2026-01-10',
      to: '2026-01-12',
      days: [
        {
          date: '2026-01-10',
          submitted: 2,
          approved: 1,
          rejected: 1,
          valueSubmitted: '150.00',
          amountPaid: '0.00',
        },
        {
          date: '2026-01-11',
          submitted: 1,
          approved: 1,
          rejected: 0,
          valueSubmitted: '200.00',
          amountPaid: '0.00',
        },
        {
          date: '2026-01-12',
          submitted: 1,
          approved: 0,
          rejected: 0,
          valueSubmitted: '80.00',
          amountPaid: '182.00',
        },
      ],
      approvalRate: 0.6667,
      medianMinutesToDecision: 30,
      medianMinutesToPayment: 1440,
      brands: [
        { cardType: 'Amazon', cards: 2, value: '300.00' },
        { cardType: 'Walmart', cards: 1, value: '80.00' },
        { cardType: 'Target', cards: 1, value: '50.00' },
      ],
      // The decisions were made today, outside the range.
      staff: [],
    });

    // Today: the staff member's three decisions, two approvals and a rejection.
    const now = (await get(staff, `/api/admin/analytics?from=${today()}&to=${today()}`)).json();
    expect(now.staff).toEqual([
      { staffId: staff.user.id, email: staff.user.email, decisions: 3, approved: 2, rejected: 1 },
    ]);

    const csv = await get(staff, RANGE.replace('analytics', 'analytics.csv'));
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain('"2026-01-10","2","1","1","150.00","0.00"');
    expect(csv.body).toContain('"Amazon","2","300.00"');
  });

  it('shows finance the business, a reviewer their own row only, and support nothing', async () => {
    const [finance, reviewer, support] = (await Promise.all(
      (['finance', 'reviewer', 'support'] as const).map((role) => signInAs(t, role)),
    )) as [SignedIn, SignedIn, SignedIn];
    expect((await get(finance, RANGE)).json().days).toHaveLength(3);
    const own = (await get(reviewer, `/api/admin/analytics?from=${today()}&to=${today()}`)).json();
    expect(own).toMatchObject({ days: [], brands: [], approvalRate: null, staff: [] });
    const denied = await get(support, RANGE);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('forbidden_role');
    expect((await get(seller, RANGE)).statusCode).toBe(403);
  });

  it('refuses a range backwards, too long or not made of dates', async () => {
    for (const query of [
      'from=2026-01-12&to=2026-01-10',
      'from=2024-01-01&to=2026-01-10',
      'from=2026-02-30',
      'to=yesterday',
    ]) {
      expect((await get(staff, `/api/admin/analytics?${query}`)).statusCode, query).toBe(400);
    }
    const standard = (await get(staff, '/api/admin/analytics')).json();
    expect(standard.days).toHaveLength(30);
    expect(standard.to).toBe(today());
  });

  it('gives a seller their paid money per month for 12 months, and by brand', async () => {
    const mine = await get(seller, '/api/stats/earnings');
    expect(mine.statusCode).toBe(200);
    const { months, brands } = mine.json();
    expect(months).toHaveLength(12);
    expect(months.at(-1).month).toBe(today().slice(0, 7));
    expect(months.find((m: { month: string }) => m.month === '2026-01')?.paid).toBe(
      t.now() < Date.parse('2027-01-01') ? '182.00' : undefined,
    );
    expect(brands).toEqual([{ cardType: 'Amazon', value: '182.00' }]);
    const stranger = (await get(await signUp(t.app), '/api/stats/earnings')).json();
    expect(stranger.brands).toEqual([]);
    expect(stranger.months.every((m: { paid: string }) => m.paid === '0.00')).toBe(true);
  });
});

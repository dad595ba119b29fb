import { sql } from 'drizzle-orm';
import type { Analytics } from '../../../shared/analytics';
import { toCents } from '../../../shared/money';
import type { Db } from '../../db/client';

const APPROVED = `('processing', 'completed')`;

/** A sum as SQL wrote it (numeric(14,2) as text), or 0.00 where there was nothing: never a float. */
const money = (value: string | null | undefined) => value ?? '0.00';
const PAID = `('sent', 'confirmed')`;

/** The range as timestamps: from the start of `from` to the end of `to`, UTC. */
const bounds = (from: string, to: string) => ({
  start: `${from}T00:00:00Z`,
  end: new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000).toISOString(),
});

/**
 * The business in numbers for staff (issue 21, item 5), all in SQL, each query on an index
 * (created_at, paid_at, first_decision_at, audit_log's type and time): per day, cards submitted
 * and what became of them, value in and money out; the approval rate; the median minutes to a
 * first decision and to payment; the top brands; decisions per staff member.
 * `onlyStaffId` narrows the staff rows to one (a reviewer sees their own).
 */
export async function analytics(
  db: Db,
  range: { from: string; to: string },
  onlyStaffId?: string,
): Promise<Analytics> {
  const { start, end } = bounds(range.from, range.to);
  const inRange = (column: string) =>
    sql.raw(`${column} >= '${start}'::timestamptz and ${column} < '${end}'::timestamptz`);
  // One pass over the range's cards gives both the days and the brands (grouping sets); the
  // approval rate is summed from the days. The rest read their own index ranges.
  const [days, cards, paid, medians, staff] = await Promise.all([
    db.execute<{ date: string }>(sql`
      select to_char(d, 'YYYY-MM-DD') as date
        from generate_series(${range.from}::date, ${range.to}::date, interval '1 day') d`),
    db.execute<{
      date: string | null;
      card_type: string | null;
      submitted: number;
      approved: number;
      rejected: number;
      value: string;
    }>(sql`
      select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as date, card_type,
             count(*)::int as submitted,
             count(*) filter (where status in ${sql.raw(APPROVED)})::int as approved,
             count(*) filter (where status = 'rejected')::int as rejected,
             sum(card_value)::numeric(14,2)::text as value
        from transactions where ${inRange('created_at')}
       group by grouping sets ((to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')), (card_type))`),
    db.execute<{ date: string; paid: string }>(sql`
      select to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD') as date,
             sum(coalesce(payment_amount, expected_payout))::numeric(14,2)::text as paid
        from transactions
       where ${inRange('paid_at')} and payment_status in ${sql.raw(PAID)}
       group by 1`),
    db.execute<{ to_decision: number | null; to_payment: number | null }>(sql`
      select
        (select percentile_cont(0.5) within group
                  (order by extract(epoch from first_decision_at - created_at) / 60)
           from transactions where ${inRange('first_decision_at')}) as to_decision,
        (select percentile_cont(0.5) within group
                  (order by extract(epoch from paid_at - created_at) / 60)
           from transactions
          where ${inRange('paid_at')} and payment_status in ${sql.raw(PAID)}) as to_payment`),
    db.execute<{
      staff_id: string;
      email: string;
      decisions: number;
      approved: number;
      rejected: number;
    }>(sql`
      select actor_id as staff_id, max(actor_email) as email,
             count(*)::int as decisions,
             count(*) filter (where changes->'status'->>'to' in ${sql.raw(APPROVED)})::int as approved,
             count(*) filter (where changes->'status'->>'to' = 'rejected')::int as rejected
        from audit_log
       where entity_type = 'transaction' and ${inRange('created_at')}
         and actor_kind = 'admin' and action = 'update'
         and changes->'status'->>'to' in ('processing', 'completed', 'rejected')
         ${onlyStaffId ? sql`and actor_id = ${onlyStaffId}` : sql``}
       group by actor_id order by count(*) desc, max(actor_email)`),
  ]);
  const dayRows = cards.rows.filter((r) => r.date !== null);
  const byDay = new Map(dayRows.map((r) => [r.date!, r]));
  const paidByDay = new Map(paid.rows.map((r) => [r.date, r.paid]));
  const minutes = (value: number | null) => (value === null ? null : Math.round(Number(value)));
  const approved = dayRows.reduce((n, r) => n + r.approved, 0);
  const decided = approved + dayRows.reduce((n, r) => n + r.rejected, 0);
  const m = medians.rows[0]!;
  const brands = cards.rows
    .filter((r) => r.card_type !== null)
    .sort((a, b) => toCents(b.value) - toCents(a.value) || a.card_type!.localeCompare(b.card_type!))
    .slice(0, 10);
  return {
    from: range.from,
    to: range.to,
    days: days.rows.map(({ date }) => {
      const day = byDay.get(date);
      return {
        date,
        submitted: day?.submitted ?? 0,
        approved: day?.approved ?? 0,
        rejected: day?.rejected ?? 0,
        valueSubmitted: money(day?.value),
        amountPaid: money(paidByDay.get(date)),
      };
    }),
    approvalRate: decided > 0 ? Math.round((approved / decided) * 10_000) / 10_000 : null,
    medianMinutesToDecision: minutes(m.to_decision),
    medianMinutesToPayment: minutes(m.to_payment),
    brands: brands.map((b) => ({
      cardType: b.card_type!,
      cards: b.submitted,
      value: money(b.value),
    })),
    staff: staff.rows.map((s) => ({
      staffId: s.staff_id,
      email: s.email,
      decisions: s.decisions,
      approved: s.approved,
      rejected: s.rejected,
    })),
  };
}

/** The analytics as one CSV: the days, then the summary, the brands and the staff. */
export function analyticsRows(a: Analytics): (string | number | null)[][] {
  return [
    ['date', 'submitted', 'approved', 'rejected', 'valueSubmitted', 'amountPaid'],
    ...a.days.map((d) => [
      d.date,
      d.submitted,
      d.approved,
      d.rejected,
      d.valueSubmitted,
      d.amountPaid,
    ]),
    [],
    ['approvalRate', a.approvalRate],
    ['medianMinutesToDecision', a.medianMinutesToDecision],
    ['medianMinutesToPayment', a.medianMinutesToPayment],
    [],
    ['brand', 'cards', 'value'],
    ...a.brands.map((b) => [b.cardType, b.cards, b.value]),
    [],
    ['staff', 'decisions', 'approved', 'rejected'],
    ...a.staff.map((s) => [s.email, s.decisions, s.approved, s.rejected]),
  ];
}

/**
 * A seller's earnings (issue 21, item 6): what was paid to them per month over the last 12
 * months (months with nothing paid included), and by brand, all time. Paid means payment sent or
 * confirmed, as Total Earned counts it.
 */
export async function earnings(db: Db, userId: string, now: number) {
  const thisMonth = new Date(now);
  const first = new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() - 11, 1));
  const [months, brands] = await Promise.all([
    db.execute<{ month: string; paid: string | null }>(sql`
      select to_char(m, 'YYYY-MM') as month, coalesce(sum(t.payment_amount), 0)::numeric(14,2)::text as paid
        from generate_series(${first.toISOString()}::timestamptz at time zone 'UTC',
                             ${first.toISOString()}::timestamptz at time zone 'UTC' + interval '11 months',
                             interval '1 month') m
        left join transactions t
          on t.user_id = ${userId} and t.payment_status in ${sql.raw(PAID)}
         and t.paid_at >= m at time zone 'UTC' and t.paid_at < (m + interval '1 month') at time zone 'UTC'
       group by m order by m`),
    db.execute<{ card_type: string; value: string }>(sql`
      select card_type, sum(payment_amount)::numeric(14,2)::text as value
        from transactions
       where user_id = ${userId} and payment_status in ${sql.raw(PAID)}
       group by card_type order by sum(payment_amount) desc, card_type limit 8`),
  ]);
  return {
    months: months.rows.map((m) => ({ month: m.month, paid: money(m.paid) })),
    brands: brands.rows.map((b) => ({ cardType: b.card_type, value: money(b.value) })),
  };
}

import { sql } from 'drizzle-orm';
import type { Analytics } from '../../../shared/analytics';
import { toCents } from '../../../shared/money';
import type { Db } from '../../db/client';

/** A sum as SQL wrote it (numeric(14,2) as text), or 0.00 where there was nothing: never a float. */
const money = (value: string | null | undefined) => value ?? '0.00';
const PAID = `('sent', 'confirmed')`;

/** Every UTC day from `from` to `to`, both included, as YYYY-MM-DD. */
function daysOf(from: string, to: string) {
  const days: string[] = [];
  for (
    let d = Date.parse(`${from}T00:00:00Z`);
    d <= Date.parse(`${to}T00:00:00Z`);
    d += 86_400_000
  ) {
    days.push(new Date(d).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * The business in numbers for staff (issue 21, item 5): per day, cards submitted and what became
 * of them, value in and money out; the approval rate; the median minutes to a first decision and
 * to payment; the top brands; decisions per staff member. Read from the rollups that triggers
 * keep beside the rows (decision 085), so the cost follows the days asked for, not the cards.
 * `onlyStaffId` narrows the staff rows to one (a reviewer sees their own).
 */
export async function analytics(
  db: Db,
  range: { from: string; to: string },
  onlyStaffId?: string,
): Promise<Analytics> {
  const inRange = sql`day between ${range.from}::date and ${range.to}::date`;
  const [cards, waits, staff] = await Promise.all([
    // The days and the brands in one pass (grouping sets).
    db.execute<{
      date: string | null;
      card_type: string | null;
      submitted: number;
      approved: number;
      rejected: number;
      value: string;
      paid: string;
    }>(sql`
      select to_char(day, 'YYYY-MM-DD') as date, card_type,
             sum(submitted)::int as submitted, sum(approved)::int as approved,
             sum(rejected)::int as rejected, sum(value)::numeric(14,2)::text as value,
             sum(paid)::numeric(14,2)::text as paid
        from analytics_cards_daily where ${inRange}
       group by grouping sets ((day), (card_type))`),
    // The medians from the histograms (whole minutes to 48 h, then hours): the middle card, or the
    // mean of the two middle ones.
    db.execute<{ kind: string; median: number | null }>(sql`
      with h as (
        select kind, minutes, sum(cards) as n from analytics_waits where ${inRange}
         group by kind, minutes having sum(cards) > 0),
      c as (
        select kind, minutes, sum(n) over (partition by kind order by minutes) as below,
               sum(n) over (partition by kind) as total from h)
      select kind,
             (min(minutes) filter (where below > floor((total - 1) / 2.0))
              + min(minutes) filter (where below > ceil((total - 1) / 2.0))) / 2.0 as median
        from c group by kind`),
    db.execute<{
      staff_id: string;
      name: string | null;
      email: string;
      decisions: number;
      approved: number;
      rejected: number;
    }>(sql`
      select d.staff_id, max(d.email) as email,
             nullif(trim(concat_ws(' ', max(a.first_name), max(a.last_name))), '') as name,
             sum(d.decisions)::int as decisions,
             sum(d.approved)::int as approved, sum(d.rejected)::int as rejected
        from analytics_staff_daily d left join admins a on a.id = d.staff_id
       where ${inRange} ${onlyStaffId ? sql`and d.staff_id = ${onlyStaffId}` : sql``}
       group by d.staff_id order by sum(d.decisions) desc, max(d.email)`),
  ]);
  const dayRows = cards.rows.filter((r) => r.date !== null);
  const byDay = new Map(dayRows.map((r) => [r.date!, r]));
  const median = (kind: string) => {
    const value = waits.rows.find((w) => w.kind === kind)?.median;
    return value === null || value === undefined ? null : Math.round(Number(value));
  };
  const approved = dayRows.reduce((n, r) => n + r.approved, 0);
  const decided = approved + dayRows.reduce((n, r) => n + r.rejected, 0);
  const brands = cards.rows
    .filter((r) => r.card_type !== null && r.submitted > 0)
    .sort((a, b) => toCents(b.value) - toCents(a.value) || a.card_type!.localeCompare(b.card_type!))
    .slice(0, 10);
  return {
    from: range.from,
    to: range.to,
    days: daysOf(range.from, range.to).map((date) => {
      const day = byDay.get(date);
      return {
        date,
        submitted: day?.submitted ?? 0,
        approved: day?.approved ?? 0,
        rejected: day?.rejected ?? 0,
        valueSubmitted: money(day?.value),
        amountPaid: money(day?.paid),
      };
    }),
    approvalRate: decided > 0 ? Math.round((approved / decided) * 10_000) / 10_000 : null,
    medianMinutesToDecision: median('decision'),
    medianMinutesToPayment: median('payment'),
    brands: brands.map((b) => ({
      cardType: b.card_type!,
      cards: b.submitted,
      value: money(b.value),
    })),
    staff: staff.rows.map((s) => ({
      staffId: s.staff_id,
      name: s.name ?? s.email,
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
    ['Date', 'Submitted', 'Approved', 'Rejected', 'Value Submitted', 'Amount Paid'],
    ...a.days.map((d) => [
      d.date,
      d.submitted,
      d.approved,
      d.rejected,
      d.valueSubmitted,
      d.amountPaid,
    ]),
    [],
    ['Approval Rate', a.approvalRate],
    ['Median Minutes to Decision', a.medianMinutesToDecision],
    ['Median Minutes to Payment', a.medianMinutesToPayment],
    [],
    ['Brand', 'Cards', 'Value'],
    ...a.brands.map((b) => [b.cardType, b.cards, b.value]),
    [],
    ['Staff', 'Email', 'Decisions', 'Approved', 'Rejected'],
    ...a.staff.map((s) => [s.name, s.email, s.decisions, s.approved, s.rejected]),
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

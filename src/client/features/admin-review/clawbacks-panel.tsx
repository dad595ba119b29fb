import type { AdminTransactionDetail } from '@shared/admin';
import {
  CLAWBACK_REASON_LABELS,
  CLAWBACK_STATUS_LABELS,
  type Clawback,
  signedCents,
} from '@shared/ledger';
import { formatMoney, fromCents, toCents } from '@shared/money';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/lib/dates';
import { useStaffCan } from '@/lib/staff-role';
import { cn } from '@/lib/utils';
import { ClawbackForm } from './clawback-form';
import { clawbacksQuery } from './queries';
import { WriteOff } from './write-off';

/** Payment statuses a clawback can be taken from (the server's 409 `not_paid` otherwise). */
const PAID = ['sent', 'confirmed'];

/**
 * Money taken back from this card after its payment (issue 39): every clawback with its reason,
 * amount and status; finance and owners (capability `books`) take money back and write off what
 * is still owed.
 */
export function ClawbacksPanel({ transaction: t }: { transaction: AdminTransactionDetail }) {
  const canBooks = useStaffCan()('books');
  const { data: clawbacks } = useQuery(clawbacksQuery(t.id));
  const paid = PAID.includes(t.paymentStatus) && t.paymentAmount ? toCents(t.paymentAmount) : 0;
  const takenBack = (clawbacks ?? [])
    .filter((c) => c.status !== 'reversed')
    .reduce((sum, c) => sum + signedCents(c.amount), 0);
  const left = Math.max(0, paid - takenBack);
  if (!clawbacks?.length && !(canBooks && paid > 0)) return null;
  return (
    <section className="grid gap-3" aria-labelledby="clawbacks-heading" data-testid="clawbacks">
      <h3 id="clawbacks-heading" className="text-sm font-semibold">
        Money taken back
      </h3>
      {clawbacks && clawbacks.length > 0 ? (
        <ul className="grid gap-2">
          {clawbacks.map((c) => (
            <ClawbackItem key={c.id} clawback={c} canWriteOff={canBooks} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">Nothing has been taken back from this card.</p>
      )}
      {canBooks && paid > 0 && <ClawbackForm transactionId={t.id} left={fromCents(left)} />}
    </section>
  );
}

function ClawbackItem({ clawback: c, canWriteOff }: { clawback: Clawback; canWriteOff: boolean }) {
  const reason =
    c.reason === 'other' && c.note ? `Other: ${c.note}` : CLAWBACK_REASON_LABELS[c.reason];
  return (
    <li className="grid gap-2 rounded-lg border p-3 text-sm" data-testid="clawback-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-semibold tabular-nums" data-testid="clawback-amount">
          {formatMoney(c.amount)}
        </span>
        <Badge
          variant="outline"
          className={cn(c.status === 'open' && 'border-destructive/50 text-destructive')}
          data-testid="clawback-status"
        >
          {CLAWBACK_STATUS_LABELS[c.status]}
        </Badge>
      </div>
      <p data-testid="clawback-reason">{reason}</p>
      {c.note && c.reason !== 'other' && <p className="text-muted-foreground">{c.note}</p>}
      <p className="text-xs text-muted-foreground">
        {formatDate(c.createdAt)}
        {c.status === 'open' && ` · ${formatMoney(c.outstanding)} still owed back`}
      </p>
      {canWriteOff && c.status === 'open' && <WriteOff clawback={c} />}
    </li>
  );
}

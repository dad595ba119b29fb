import { formatMoney, fromCents, MONEY_PATTERN, toCents } from '@shared/money';
import { VERIFY_NEXT, type VerificationState } from '@shared/verification';
import { AlertTriangleIcon, BadgeCheckIcon } from 'lucide-react';
import { Link } from 'wouter';

/**
 * What the customer may still submit, before they type a value, and a call to verify when the
 * value typed would pass it (decision 072).
 */
export function AllowanceNote({
  state,
  cardValue,
}: {
  state: VerificationState;
  cardValue: string;
}) {
  const { limits } = state;
  const left = (total: string, used: string) => Math.max(0, toCents(total) - toCents(used));
  const max = Math.min(
    toCents(limits.perCard),
    left(limits.perDay, limits.usedDay),
    left(limits.per30Days, limits.used30Days),
  );
  const value = cardValue.trim();
  const over = MONEY_PATTERN.test(value) && toCents(value) > max;
  const next = VERIFY_NEXT[state.level + 1];
  const pending = state.status === 'pending';
  return (
    <div
      className={`flex gap-3 rounded-lg border p-4 text-sm ${
        over
          ? 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100'
          : 'bg-card'
      }`}
      data-testid="allowance-note"
      role={over ? 'alert' : undefined}
    >
      {over ? (
        <AlertTriangleIcon className="mt-0.5 size-5 shrink-0" aria-hidden />
      ) : (
        <BadgeCheckIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
      )}
      <div className="grid gap-1">
        <p>
          {over ? (
            <strong>
              This card is over what you can sell now ({formatMoney(fromCents(max))}).
            </strong>
          ) : (
            <>
              You can sell up to{' '}
              <strong data-testid="allowance-max">{formatMoney(fromCents(max))}</strong> now
            </>
          )}{' '}
          <span className="text-muted-foreground">
            ({formatMoney(limits.perCard)} per card,{' '}
            {formatMoney(fromCents(left(limits.perDay, limits.usedDay)))} left in 24 hours,{' '}
            {formatMoney(fromCents(left(limits.per30Days, limits.used30Days)))} left in 30 days).
          </span>
        </p>
        {next && (
          <p>
            <Link
              href="/verification"
              className="font-semibold underline underline-offset-2"
              data-testid="verify-link"
            >
              {pending ? 'Your verification is being checked' : `${next} to sell more`}
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}

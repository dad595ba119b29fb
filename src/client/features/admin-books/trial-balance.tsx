import { formatSignedMoney, signedCents, type TrialBalance } from '@shared/ledger';
import { formatMoney, fromCents } from '@shared/money';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2Icon, XCircleIcon } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { trialBalanceQuery } from './queries';

const money = (cents: number) => formatMoney(fromCents(Math.abs(cents)));

/**
 * Every account's balance in the debit or the credit column and the columns' totals, equal when
 * the books balance; beneath, everything ever posted on each side (decision 093).
 */
export function TrialBalanceCard() {
  const { data } = useQuery(trialBalanceQuery());
  return (
    <section className="grid gap-3" aria-labelledby="trial-balance-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="trial-balance-heading" className="font-semibold">
          Trial balance
        </h2>
        {data && <BalancedBadge balanced={data.balanced} />}
      </div>
      {data ? <TrialTable data={data} /> : <Skeleton className="h-40" />}
    </section>
  );
}

function BalancedBadge({ balanced }: { balanced: boolean }) {
  return (
    <p
      className={cn(
        'flex items-center gap-1.5 text-sm font-medium',
        balanced ? 'text-primary' : 'text-destructive',
      )}
      data-testid="trial-balanced"
    >
      {balanced ? <CheckCircle2Icon className="size-4" /> : <XCircleIcon className="size-4" />}
      {balanced ? 'Balanced: debits equal credits' : 'Not balanced'}
    </p>
  );
}

function TrialTable({ data }: { data: TrialBalance }) {
  const cents = data.accounts.map((a) => signedCents(a.balance));
  const debit = cents.filter((c) => c > 0).reduce((s, c) => s + c, 0);
  const credit = cents.filter((c) => c < 0).reduce((s, c) => s + c, 0);
  return (
    <>
      <Table scrollLabel="Accounts and their balances" data-testid="trial-balance">
        <TableColumns
          columns={[
            'Account',
            { label: 'Debit', align: 'right' },
            { label: 'Credit', align: 'right' },
          ]}
        />
        <TableBody>
          {data.accounts.map((a, i) => (
            <TableRow key={a.code} data-testid="trial-account">
              <TableCell className="whitespace-normal">
                {a.name}
                <span className="block font-mono text-xs text-muted-foreground">{a.code}</span>
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {cents[i]! > 0 ? money(cents[i]!) : ''}
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {cents[i]! < 0 ? money(cents[i]!) : ''}
              </TableCell>
            </TableRow>
          ))}
          <TableRow className="font-semibold">
            <TableCell>Total</TableCell>
            <TableCell className="text-right tabular-nums" data-testid="trial-debit-total">
              {money(debit)}
            </TableCell>
            <TableCell className="text-right tabular-nums" data-testid="trial-credit-total">
              {money(credit)}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
      <p className="text-sm text-muted-foreground" data-testid="trial-posted">
        Posted in all: {formatSignedMoney(data.debits)} in debits, {formatSignedMoney(data.credits)}{' '}
        in credits.
      </p>
    </>
  );
}

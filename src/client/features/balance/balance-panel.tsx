import type { Balance } from '@shared/ledger';
import { formatMoney } from '@shared/money';
import { useQuery } from '@tanstack/react-query';
import { ArrowRightIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { balanceQuery } from './queries';

const FIGURES: { key: keyof Balance; label: string; hint: string; testId: string }[] = [
  { key: 'owed', label: 'Owed to you', hint: 'Approved, not sent yet', testId: 'balance-owed' },
  {
    key: 'onTheWay',
    label: 'On the way',
    hint: 'Sent, not confirmed yet',
    testId: 'balance-on-the-way',
  },
  { key: 'paid', label: 'Paid in total', hint: 'Sent to you so far', testId: 'balance-paid' },
  {
    key: 'owedBack',
    label: 'Owed back',
    hint: 'Taken back, set against your next payouts',
    testId: 'balance-owed-back',
  },
];

/** The seller's account on the dashboard (issue 39), from the books; links to the Statement. */
export function BalancePanel() {
  const { data } = useQuery(balanceQuery());
  return (
    <Card data-testid="balance-panel">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Balance</CardTitle>
        <Button variant="ghost" size="sm" asChild>
          <Link href="/statement" data-testid="balance-statement-link">
            Statement <ArrowRightIcon />
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-5 lg:grid-cols-4">
          {FIGURES.map(({ key, label, hint, testId }) => {
            const value = data?.[key];
            const owing = key === 'owedBack' && value !== undefined && value !== '0.00';
            return (
              <div key={key} className="min-w-0">
                <dt className="text-sm text-muted-foreground">{label}</dt>
                <dd
                  className={cn(
                    'mt-1 truncate text-xl font-bold tabular-nums',
                    owing && 'text-destructive',
                  )}
                  data-testid={testId}
                >
                  {value === undefined ? <Skeleton className="h-7 w-20" /> : formatMoney(value)}
                </dd>
                <dd className="mt-0.5 text-xs text-muted-foreground">{hint}</dd>
              </div>
            );
          })}
        </dl>
      </CardContent>
    </Card>
  );
}

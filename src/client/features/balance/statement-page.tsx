import { formatSignedMoney, LEDGER_PAGE, type StatementItem } from '@shared/ledger';
import { useQuery } from '@tanstack/react-query';
import { DownloadIcon, ReceiptTextIcon } from 'lucide-react';
import { DateTimeStack } from '@/components/date-time';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { Pager, useCursorPages } from '@/components/pager';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { formatDate } from '@/lib/dates';
import { cn } from '@/lib/utils';
import { STATEMENT_CSV_URL, statementQuery } from './queries';

/**
 * The seller's statement (issue 39, decision 095): every entry of their account, newest first,
 * a page at a time, in the server's words, with the amount from their side and the balance after
 * it. The CSV holds the whole statement.
 */
export function StatementPage() {
  const pages = useCursorPages();
  const { data, isLoading } = useQuery(statementQuery(pages.cursor));
  return (
    <div>
      <PageHeader
        title="Statement"
        description="Every amount credited to you, paid to you or taken back, newest first."
        actions={
          <Button variant="outline" asChild>
            <a href={STATEMENT_CSV_URL} download data-testid="statement-csv">
              <DownloadIcon /> Download CSV
            </a>
          </Button>
        }
      />
      <Card>
        <CardContent className="p-2 sm:p-4">
          {isLoading || !data ? (
            <div className="grid gap-3 p-2">
              <Skeleton className="h-12" />
              <Skeleton className="h-12" />
            </div>
          ) : data.items.length === 0 ? (
            <EmptyState icon={<ReceiptTextIcon />} testId="statement-empty">
              <p className="font-medium text-foreground">Nothing on your statement yet</p>
              <p className="text-sm">An approved card is credited here, then its payment.</p>
            </EmptyState>
          ) : (
            <>
              <Table aria-label="Statement">
                <TableHeader>
                  <TableRow>
                    <TableHead className="max-sm:hidden">Date</TableHead>
                    <TableHead>What happened</TableHead>
                    <TableHead className="text-right">Amount</TableHead>
                    <TableHead className="text-right max-sm:hidden">Balance</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.items.map((item) => (
                    <StatementRow key={item.id} item={item} />
                  ))}
                </TableBody>
              </Table>
              <Pager
                pages={pages}
                count={data.items.length}
                nextCursor={data.nextCursor}
                pageSize={LEDGER_PAGE}
              />
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function StatementRow({ item }: { item: StatementItem }) {
  const negative = item.amount.startsWith('-');
  const balance = formatSignedMoney(item.balance);
  // On a phone the date goes under the words and the balance under the amount: four columns do
  // not fit 375 px.
  return (
    <TableRow data-testid="statement-row" data-kind={item.kind}>
      <TableCell className="max-sm:hidden">
        <DateTimeStack value={item.at} />
      </TableCell>
      <TableCell className="whitespace-normal sm:min-w-56">
        <span className="block" data-testid="statement-description">
          {item.description}
        </span>
        <span className="block text-xs text-muted-foreground sm:hidden">{formatDate(item.at)}</span>
      </TableCell>
      <TableCell className="text-right align-top sm:align-middle">
        <span
          className={cn(
            'block font-medium tabular-nums',
            negative ? 'text-destructive' : item.amount !== '0.00' && 'text-primary',
          )}
          data-testid="statement-amount"
        >
          {formatSignedMoney(item.amount, { plus: true })}
        </span>
        <span className="block text-xs text-muted-foreground tabular-nums sm:hidden">
          Balance {balance}
        </span>
      </TableCell>
      <TableCell className="text-right tabular-nums max-sm:hidden" data-testid="statement-balance">
        {balance}
      </TableCell>
    </TableRow>
  );
}

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
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
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
                <TableColumns
                  columns={[
                    'Date',
                    'What happened',
                    { label: 'Amount', align: 'right' },
                    { label: 'Balance', align: 'right' },
                  ]}
                />
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
  return (
    <TableRow data-testid="statement-row" data-kind={item.kind}>
      <TableCell>
        <DateTimeStack value={item.at} />
      </TableCell>
      <TableCell className="min-w-56 whitespace-normal" data-testid="statement-description">
        {item.description}
      </TableCell>
      <TableCell
        className={cn(
          'text-right font-medium tabular-nums',
          negative ? 'text-destructive' : item.amount !== '0.00' && 'text-primary',
        )}
        data-testid="statement-amount"
      >
        {formatSignedMoney(item.amount, { plus: true })}
      </TableCell>
      <TableCell className="text-right tabular-nums" data-testid="statement-balance">
        {formatSignedMoney(item.balance)}
      </TableCell>
    </TableRow>
  );
}

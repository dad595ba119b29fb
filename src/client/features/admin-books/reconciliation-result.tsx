import { formatSignedMoney } from '@shared/ledger';
import type { Reconciliation, StatementLine } from '@shared/reconciliation';
import type * as React from 'react';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/dates';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a statement's upload matched, and what it did not, on both sides. */
export function ReconciliationResult({ result }: { result: Reconciliation }) {
  return (
    <div className="grid gap-5 rounded-lg border p-4" data-testid="reconciliation-result">
      <p className="font-medium" role="status" data-testid="reconciliation-summary">
        {result.fileName}: {plural(result.lines, 'line')} read, {result.matched} matched to a
        payment.
      </p>
      <LinesPart
        title="Matched lines"
        lines={result.matchedLines}
        testId="reconciliation-matched"
        empty="No line matched a payment."
      />
      <LinesPart
        title="Lines without a payment"
        lines={result.unmatchedLines}
        testId="reconciliation-unmatched-lines"
        empty="Every line matched a payment."
      />
      <Part
        title="Payments without a line"
        count={result.unmatchedPayments.length}
        testId="reconciliation-unmatched-payments"
        empty="Every payment sent in the file's days is on it."
      >
        <Table scrollLabel="Payments without a line">
          <TableColumns
            columns={['Paid', 'Seller', 'Reference', { label: 'Amount', align: 'right' }]}
          />
          <TableBody>
            {result.unmatchedPayments.map((p) => (
              <TableRow key={p.transactionId}>
                <TableCell>{formatDate(p.paidAt)}</TableCell>
                <TableCell>{p.customerEmail}</TableCell>
                <TableCell className="font-mono text-xs">{p.reference ?? '—'}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {formatSignedMoney(p.amount)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Part>
    </div>
  );
}

function Part({
  title,
  count,
  testId,
  empty,
  children,
}: {
  title: string;
  count: number;
  testId: string;
  empty: string;
  children: React.ReactNode;
}) {
  return (
    <section className="grid gap-2" data-testid={testId}>
      <h3 className="text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({count})</span>
      </h3>
      {count === 0 ? <p className="text-sm text-muted-foreground">{empty}</p> : children}
    </section>
  );
}

/** A part listing statement lines: titled, counted, and labelled as its title says. */
function LinesPart({
  title,
  lines,
  testId,
  empty,
}: {
  title: string;
  lines: StatementLine[];
  testId: string;
  empty: string;
}) {
  return (
    <Part title={title} count={lines.length} testId={testId} empty={empty}>
      <Lines lines={lines} label={title} />
    </Part>
  );
}

function Lines({ lines, label }: { lines: StatementLine[]; label: string }) {
  return (
    <Table scrollLabel={label}>
      <TableColumns
        columns={['Line', 'Date', 'Reference', 'Payee', { label: 'Amount', align: 'right' }]}
      />
      <TableBody>
        {lines.map((line) => (
          <TableRow key={line.lineNo}>
            <TableCell className="tabular-nums">{line.lineNo}</TableCell>
            <TableCell>{line.date}</TableCell>
            <TableCell className="font-mono text-xs">{line.reference}</TableCell>
            <TableCell>{line.payee ?? '—'}</TableCell>
            <TableCell className="text-right tabular-nums">
              {formatSignedMoney(line.amount)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

import { type Books, formatSignedMoney } from '@shared/ledger';
import { useQuery } from '@tanstack/react-query';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/dates';
import { booksQuery } from './queries';

/** The money to have ready, what went out, and what sellers owe back by age (issue 39). */
export function BooksFigures() {
  const { data } = useQuery(booksQuery());
  if (!data) return <Skeleton className="h-40" />;
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <OwedBySellers books={data} />
      <div className="grid content-start gap-6">
        <OwedBack books={data} />
        <MoneyOut books={data} />
      </div>
    </div>
  );
}

function OwedBySellers({ books }: { books: Books }) {
  return (
    <section className="grid content-start gap-3" aria-labelledby="owed-heading">
      <div>
        <h2 id="owed-heading" className="font-semibold">
          Owed to sellers
        </h2>
        <p className="text-2xl font-bold tabular-nums" data-testid="books-owed-total">
          {formatSignedMoney(books.owedTotal)}
        </p>
        <p className="text-sm text-muted-foreground">The money to have ready, per payout method.</p>
      </div>
      {books.owedByMethod.length > 0 && (
        <Table aria-labelledby="owed-heading" data-testid="books-owed-by-method">
          <TableColumns columns={['Payout method', { label: 'Owed', align: 'right' }]} />
          <TableBody>
            {books.owedByMethod.map((m) => (
              <TableRow key={m.type ?? 'none'}>
                <TableCell>{m.label}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {formatSignedMoney(m.amount)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

const AGES: [keyof Books['owedBackAged'], string][] = [
  ['days0to30', '0–30 days'],
  ['days31to90', '31–90 days'],
  ['over90', 'Over 90 days'],
];

function OwedBack({ books }: { books: Books }) {
  return (
    <section className="grid gap-3" aria-labelledby="owed-back-heading">
      <h2 id="owed-back-heading" className="font-semibold">
        Owed back by sellers, by age
      </h2>
      <dl className="grid grid-cols-3 gap-3" data-testid="books-owed-back">
        {AGES.map(([key, label]) => (
          <div key={key} className="rounded-lg border p-3">
            <dt className="text-xs text-muted-foreground">{label}</dt>
            <dd className="mt-1 font-semibold tabular-nums" data-testid={`books-aged-${key}`}>
              {formatSignedMoney(books.owedBackAged[key])}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function MoneyOut({ books }: { books: Books }) {
  const days = [...books.outByDay].reverse();
  return (
    <section className="grid gap-3" aria-labelledby="money-out-heading">
      <h2 id="money-out-heading" className="font-semibold">
        Money out per day
      </h2>
      {days.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nothing was paid out lately.</p>
      ) : (
        <Table aria-labelledby="money-out-heading" data-testid="books-out-by-day">
          <TableColumns columns={['Day', { label: 'Paid out', align: 'right' }]} />
          <TableBody>
            {days.map((d) => (
              <TableRow key={d.day}>
                <TableCell>{formatDate(`${d.day}T12:00:00`)}</TableCell>
                <TableCell className="text-right tabular-nums">
                  {formatSignedMoney(d.amount)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </section>
  );
}

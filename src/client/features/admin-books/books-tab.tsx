import { BooksFigures } from './books-figures';
import { LedgerExport } from './ledger-export';
import { ReconciliationUpload } from './reconciliation-upload';
import { TrialBalanceCard } from './trial-balance';

/** The Books tab (issue 39): owners and finance (capability `books`), answered from the ledger. */
export function BooksTab() {
  return (
    <div className="grid gap-8" data-testid="books">
      <BooksFigures />
      <TrialBalanceCard />
      <LedgerExport />
      <ReconciliationUpload />
    </div>
  );
}

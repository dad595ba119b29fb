import { loadConfig } from '../config';
import { checkLedger, describeMismatch } from '../modules/ledger';
import { withDatabase } from './open-database';

/**
 * npm run ledger:check: compares what every card implies with the books (issue 39), prints each
 * mismatch (the card's id and both amounts), and exits 1 when there is one. With the embedded
 * database, stop the server first; on PostgreSQL it runs beside it.
 */
async function main() {
  const started = performance.now();
  const mismatches = await withDatabase(loadConfig(), (database) => checkLedger(database.db));
  for (const mismatch of mismatches) console.log(describeMismatch(mismatch));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (mismatches.length > 0) {
    console.log(
      `${mismatches.length} mismatch${mismatches.length === 1 ? '' : 'es'} (${seconds} s)`,
    );
    process.exit(1);
  }
  console.log(`The books match the cards (${seconds} s)`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});

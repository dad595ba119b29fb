import type { FastifyInstance } from 'fastify';
import type { Database } from './db/client';
import { listTransactions, queuePlacesOf, transactionStats } from './modules/cards';
import { conversation } from './modules/chat';

/** A customer id no one has: the warm-up's reads find nothing. */
const NO_ONE = '00000000-0000-0000-0000-000000000000';
const NO_HOLDS = { newMethodHours: 0, newAccountHours: 0, now: 0 };

/**
 * Before the server listens (docs/decisions/089): the database's connections are opened, and the
 * reads behind a signed-in page's first requests (its session, and the four polls of spec section
 * 3) run once, for no one. After a restart every open page asks at once; without this the first
 * of them paid for the connections, the statements' first planning and the database's cold
 * caches, and their p99 was set by the first second alone. Answers how long it took, in ms.
 */
export async function warmUp(app: FastifyInstance, database: Database): Promise<number> {
  const started = performance.now();
  await database.connectAll();
  const places = queuePlacesOf(app);
  await Promise.all([
    app.sessionReads.load(''),
    transactionStats(database.db, NO_ONE),
    listTransactions(database.db, places, NO_ONE, NO_HOLDS),
    // Another no one: the list and the recent page of one customer are read together, whole.
    listTransactions(database.db, places, NO_ONE.replace(/0$/, '1'), NO_HOLDS, true),
    conversation(database.db, NO_ONE),
    // The queue's places, which the first list with a pending card needs (queue-places.ts).
    places.current(),
  ]);
  return performance.now() - started;
}

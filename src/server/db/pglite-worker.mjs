// The embedded database in its own thread: PGlite (Postgres compiled to WASM) runs every query
// synchronously, so on the main thread a staff search over 100,000 rows would stall every other
// request. Here it serves the PostgreSQL wire protocol on a Unix socket (pglite-socket), and the
// app reaches it with node-postgres exactly as it reaches PostgreSQL. Plain JavaScript, so that
// Node, tsx and Vitest can all start it as it is.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** @type {{ dataDir: string | undefined, socketPath: string }} */
const { dataDir, socketPath } = workerData;

// pg_trgm backs the staff search (trigram indexes for ILIKE '%...%').
const db = await PGlite.create({ dataDir, extensions: { pg_trgm } });
// The app keeps one connection; one more is room for it to reconnect while the old one closes.
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 2 });
await server.start();
parentPort.postMessage({ ready: true });

parentPort.on('message', async (message) => {
  if (message !== 'close') return;
  await server.stop();
  await db.close();
  parentPort.close();
});

// The embedded database in its own thread: PGlite (Postgres compiled to WASM) runs every query
// synchronously, so on the main thread a staff search over 100,000 rows would stall every other
// request. Here it serves the PostgreSQL wire protocol on a Unix socket (pglite-socket), and the
// app reaches it with node-postgres exactly as it reaches PostgreSQL. Plain JavaScript, so that
// Node, tsx and Vitest can all start it as it is.
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** @type {{ dataDir: string | undefined, loadFrom: string | undefined, socketPath: string, controlPath: string | undefined }} */
const { dataDir, loadFrom, socketPath, controlPath } = workerData;

// pg_trgm backs the staff search (trigram indexes for ILIKE '%...%'). A dump to start from skips
// creating the cluster (initdb), most of a fresh start's seconds.
const db = await PGlite.create({
  dataDir,
  extensions: { pg_trgm },
  loadDataDir: loadFrom ? new Blob([await readFile(loadFrom)]) : undefined,
});
// The app keeps one connection; one more is room for it to reconnect while the old one closes.
const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 2 });
await server.start();

/**
 * npm run backup while the server runs (decision 074): a line `{"dump":"/path"}` on this socket
 * (in the private folder beside the database's) writes PGlite's dump of its data folder there
 * and answers `{"ok":true}` or `{"error":"..."}`. The dump is taken between statements, once no
 * transaction is open (waiting up to 5 s for one to end): a consistent copy.
 */
const control = controlPath
  ? createServer((socket) => {
      let input = '';
      socket.setEncoding('utf8');
      socket.on('error', () => {});
      socket.on('data', async (chunk) => {
        input += chunk;
        if (!input.includes('\n')) return;
        socket.pause();
        try {
          const { dump } = JSON.parse(input.slice(0, input.indexOf('\n')));
          for (let waited = 0; db.isInTransaction() && waited < 5000; waited += 20) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          const blob = await db.dumpDataDir('gzip');
          await pipeline(Readable.fromWeb(blob.stream()), createWriteStream(dump, { mode: 0o600 }));
          socket.end(`${JSON.stringify({ ok: true, bytes: blob.size })}\n`);
        } catch (error) {
          socket.end(`${JSON.stringify({ error: String(error?.message ?? error) })}\n`);
        }
      });
    })
  : null;
if (control) await new Promise((resolve) => control.listen(controlPath, resolve));
parentPort.postMessage({ ready: true });

parentPort.on('message', async (message) => {
  if (message !== 'close') return;
  control?.close();
  await server.stop();
  await db.close();
  parentPort.close();
});

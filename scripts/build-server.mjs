// Bundles the server and the operator commands into dist/server, next to a copy of the
// committed SQL migrations and the embedded database's worker (the database client finds both
// beside itself).
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/server', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/server/main.ts', 'admin-create': 'src/server/cli/admin-create.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', 'dist/server/migrations', { recursive: true });
cpSync('src/server/db/pglite-worker.mjs', 'dist/server/pglite-worker.mjs');
console.log('built dist/server');

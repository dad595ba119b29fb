// Bundles the server and the operator commands into dist/server, next to a copy of the
// committed SQL migrations, the embedded database's worker and the receipt's font (the database
// client and the receipt find them beside themselves).
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);

/**
 * A package's JSON data (the country names of i18n-iso-countries) is bundled, not left as an
 * import: Node 20 loads JSON only with an import attribute, which esbuild does not keep.
 */
const bundleJsonData = {
  name: 'bundle-json-data',
  setup(b) {
    b.onResolve({ filter: /^[^./].*\.json$/ }, (args) => ({
      path: require.resolve(args.path, { paths: [args.resolveDir] }),
    }));
  },
};

rmSync('dist/server', { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/server/main.ts',
    'admin-create': 'src/server/cli/admin-create.ts',
    'keys-rotate': 'src/server/cli/keys-rotate.ts',
    'ledger-check': 'src/server/cli/ledger-check.ts',
    backup: 'src/server/cli/backup.ts',
    restore: 'src/server/cli/restore.ts',
  },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  plugins: [bundleJsonData],
  sourcemap: true,
  logLevel: 'warning',
});
cpSync('src/server/db/migrations', 'dist/server/migrations', { recursive: true });
cpSync('src/server/db/pglite-worker.mjs', 'dist/server/pglite-worker.mjs');
cpSync('src/server/modules/cards/receipt-font.ttf', 'dist/server/receipt-font.ttf');
console.log('built dist/server');

/**
 * The server's rooms and the arrows between them (docs/architecture.md, decision 098), checked on
 * the import graph whatever way an import is written: `npm run arch` (part of `npm run lint`).
 * Biome's noRestrictedImports says which module may use which, by the import as written; this
 * checks the resolved files, so no spelling of a path gets through.
 */
const { rooms, top } = require('./scripts/lib/rooms.cjs');

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...rooms.slice(0, -1).map(([name, path], i) => ({
      name: `upward-from-${name}`,
      comment: `${name} imports only the rooms beneath it`,
      severity: 'error',
      from: { path },
      to: { path: rooms.slice(i + 1).map(([, above]) => `(${above})`).join('|') },
    })),
    {
      name: 'module-public-entry',
      comment: 'a module is reached by another only through its index.ts',
      severity: 'error',
      from: { path: '^src/server/modules/([^/]+)/' },
      to: {
        path: '^src/server/modules/[^/]+/',
        pathNot: ['^src/server/modules/$1/', '^src/server/modules/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'top-floor-public-entry',
      comment: 'the top floor registers routes and uses public entries, nothing deeper',
      severity: 'error',
      from: { path: top, pathNot: '\\.test\\.ts$' },
      to: {
        path: '^src/server/modules/[^/]+/',
        pathNot: '^src/server/modules/[^/]+/(index|routes)\\.ts$',
      },
    },
  ],
  options: {
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};

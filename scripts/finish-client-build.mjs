// After `vite build`: writes a brotli and a gzip copy beside every text asset of dist/client (the
// server sends them with Content-Encoding), then prints the landing page's initial JavaScript,
// gzipped, and fails the build past its budget. The landing page is the entry chunk, the landing
// page's chunk and every chunk they import statically (read from Vite's manifest); pages loaded
// on demand do not count. It also fills public/theme-init.js's list of what to preload.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const CLIENT_DIR = 'dist/client';
const BUDGET_KB = 100;
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map|webmanifest)$/;

const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });

const manifest = JSON.parse(readFileSync(path.join(CLIENT_DIR, '.vite/manifest.json'), 'utf8'));
/** A manifest entry's file and every chunk it imports statically, as files. */
const chunksOf = (key, into = new Set()) => {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunksOf(imported, into);
  return into;
};
const initial = chunksOf('index.html');
const LANDING = 'features/landing/landing-page.tsx';

// theme-init.js starts the first screen's code beside the entry script: the signed-in shell or
// the landing page, whichever the visitor's hint calls for (see public/theme-init.js).
const preloadOf = (key) =>
  [...chunksOf(key)].filter((f) => f.endsWith('.js') && !initial.has(f)).map((f) => `/${f}`);
const themeInit = path.join(CLIENT_DIR, 'theme-init.js');
const EMPTY = 'var PRELOAD = { signedIn: [], landing: [] };';
const script = readFileSync(themeInit, 'utf8');
if (!script.includes(EMPTY)) throw new Error(`${themeInit} has no "${EMPTY}" to fill`);
const preload = { signedIn: preloadOf('app/signed-in-app.tsx'), landing: preloadOf(LANDING) };
if (preload.signedIn.length === 0 || preload.landing.length === 0) {
  throw new Error('the signed-in shell or the landing page is missing from the manifest');
}
writeFileSync(themeInit, script.replace(EMPTY, `var PRELOAD = ${JSON.stringify(preload)};`));

let written = 0;
for (const file of filesUnder(CLIENT_DIR)) {
  if (!COMPRESSIBLE.test(file) || file.endsWith('.map')) continue;
  const bytes = readFileSync(file);
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  // A copy no smaller than the file itself is not worth sending.
  if (brotli.length < bytes.length) writeFileSync(`${file}.br`, brotli);
  if (gzip.length < bytes.length) writeFileSync(`${file}.gz`, gzip);
  written++;
}

// The landing page's JavaScript: the entry, and the landing page's own chunks theme-init.js
// fetches beside it.
chunksOf(LANDING, initial);

const gzipKb = (file) =>
  gzipSync(readFileSync(path.join(CLIENT_DIR, file)), { level: 9 }).length / 1024;
const rows = [...initial].filter((f) => f.endsWith('.js')).map((f) => [f, gzipKb(f)]);
const total = rows.reduce((sum, [, kb]) => sum + kb, 0);
const rawKb = rows.reduce((sum, [f]) => sum + statSync(path.join(CLIENT_DIR, f)).size / 1024, 0);

console.log(`pre-compressed ${written} files (brotli and gzip)`);
for (const [file, kb] of rows)
  console.log(`  ${file.padEnd(44)} ${kb.toFixed(1).padStart(6)} kB gzip`);
console.log(
  `landing page initial JavaScript: ${total.toFixed(1)} kB gzip (${rawKb.toFixed(1)} kB raw), budget ${BUDGET_KB} kB`,
);
if (total > BUDGET_KB) {
  console.error(`The landing page's initial JavaScript is over its ${BUDGET_KB} kB budget.`);
  process.exit(1);
}

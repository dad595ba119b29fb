// After `vite build`: writes a brotli and a gzip copy beside every text asset of dist/client (the
// server sends them with Content-Encoding), then prints the landing page's initial JavaScript,
// gzipped, and fails the build past its budget. The landing page is the entry chunk and every
// chunk it imports statically (read from Vite's manifest); pages loaded on demand do not count.
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

const manifest = JSON.parse(readFileSync(path.join(CLIENT_DIR, '.vite/manifest.json'), 'utf8'));
const initial = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || initial.has(chunk.file)) return;
  initial.add(chunk.file);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit('index.html');

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

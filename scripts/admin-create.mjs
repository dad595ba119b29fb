// npm run admin:create -- --email E --password P
// From the sources under tsx where the dev tools are installed; from the build in dist/ on a
// production install (npm ci --omit=dev has no tsx).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const built = path.join(root, 'dist/server/admin-create.js');

let tsx = null;
try {
  tsx = createRequire(import.meta.url).resolve('tsx/cli');
} catch {}

const command =
  tsx && existsSync(path.join(root, 'src/server/cli/admin-create.ts'))
    ? [tsx, path.join(root, 'src/server/cli/admin-create.ts'), ...args]
    : existsSync(built)
      ? [built, ...args]
      : null;
if (!command) {
  console.error('dist/server/admin-create.js is missing: run npm run build first.');
  process.exit(1);
}
const result = spawnSync(process.execPath, command, { stdio: 'inherit' });
process.exit(result.status ?? 1);

// npm run admin:create | keys:rotate | backup | restore -- ...: the operator command named first.
// From the sources under tsx where the dev tools are installed; from the build in dist/ on a
// production install (npm ci --omit=dev has no tsx).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const [name, ...args] = process.argv.slice(2);
const built = path.join(root, `dist/server/${name}.js`);
const source = path.join(root, `src/server/cli/${name}.ts`);

let tsx = null;
try {
  tsx = createRequire(import.meta.url).resolve('tsx/cli');
} catch {}

const command =
  tsx && existsSync(source) ? [tsx, source, ...args] : existsSync(built) ? [built, ...args] : null;
if (!command) {
  console.error(`dist/server/${name}.js is missing: run npm run build first.`);
  process.exit(1);
}
const result = spawnSync(process.execPath, command, { stdio: 'inherit' });
process.exit(result.status ?? 1);

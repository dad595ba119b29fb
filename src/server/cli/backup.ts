import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { backup } from './backups';

const USAGE = [
  'Usage: npm run backup -- --out DIR',
  'Writes the database, every stored file and manifest.json (row counts and checksums) into DIR,',
  'a new or empty folder, while the server runs or not. DATA_ENCRYPTION_KEY is not in it: keep',
  'the key apart. Restore with: npm run restore -- --from DIR',
].join('\n');

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (!values.out) throw new ConfigError(USAGE);
  const out = path.resolve(values.out);
  const manifest = await backup(loadConfig(), out, (line) => console.log(line));
  console.log(
    `Backup written to ${out} in ${manifest.seconds} s (recovery point ${manifest.takenAt}).`,
  );
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

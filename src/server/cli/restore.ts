import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, dataKeyFile, loadConfig } from '../config';
import { restore } from './backups';

const USAGE = [
  'Usage: npm run restore -- --from DIR',
  'Puts a backup made by npm run backup into the configured database (an empty DATA_DIR, or an',
  'empty PostgreSQL database at DATABASE_URL) and storage (an empty folder or bucket); refuses',
  'anything not empty. Checks every checksum, then the row counts against the manifest.',
].join('\n');

async function main() {
  const { values } = parseArgs({ options: { from: { type: 'string' } } });
  if (!values.from) throw new ConfigError(USAGE);
  const from = path.resolve(values.from);
  const config = loadConfig();
  const result = await restore(config, from, (line) => console.log(line));
  const rows = Object.values(result.tables).reduce((a, b) => a + b, 0);
  console.log(
    `Restored ${from} (recovery point ${result.manifest.takenAt}) in ${result.seconds} s: ${rows} rows, ${result.manifest.objects.count} files, as the manifest counts them.`,
  );
  // The backup holds no key (decision 074): the sealed secrets need the old install's.
  console.log(
    process.env.DATA_ENCRYPTION_KEY
      ? 'Sealed secrets open only with the DATA_ENCRYPTION_KEY of the backed-up install: make sure it is the one set.'
      : `Sealed secrets open only with the backed-up install's key: copy its DATA_DIR/data-encryption-key over ${dataKeyFile(config.dataDir)} before starting (or staff set up their authenticators again).`,
  );
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

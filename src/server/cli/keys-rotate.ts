import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type AppConfig, ConfigError, dataKeyFile, loadConfig } from '../config';
import { newDataKeyText } from '../encryption';
import { openStorage } from '../storage/open-storage';
import { withDatabase } from './open-database';
import { rotateDataKeys } from './sealed-data';

const USAGE = [
  'Usage: npm run keys:rotate [-- --new-key]',
  'Seals every secret at rest under the current DATA_ENCRYPTION_KEY, reading older ones with the',
  'keys in DATA_ENCRYPTION_PREVIOUS_KEYS. Interrupted, run it again: it goes on where it stopped.',
  '--new-key (only with the key generated into DATA_DIR) first makes a new key there.',
  'Procedure with DATA_ENCRYPTION_KEY set: docs/operations.md, "Rotating DATA_ENCRYPTION_KEY".',
].join('\n');

async function main() {
  const { values } = parseArgs({
    options: { 'new-key': { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  let config: AppConfig = loadConfig();
  const fromFile = !process.env.DATA_ENCRYPTION_KEY;
  if (values['new-key']) {
    if (!fromFile) {
      throw new ConfigError(
        `--new-key makes a key in DATA_DIR, but DATA_ENCRYPTION_KEY is set: set the new key there and the old one in DATA_ENCRYPTION_PREVIOUS_KEYS, then run npm run keys:rotate.\n${USAGE}`,
      );
    }
    const file = dataKeyFile(config.dataDir);
    writeFileSync(file, `${newDataKeyText()}\n${readFileSync(file, 'utf8')}`, { mode: 0o600 });
    config = loadConfig();
    console.log(`New data key ${config.encryption.current.id} written first in ${file}.`);
  }
  const { current } = config.encryption;
  const counts = await withDatabase(config, (database) =>
    rotateDataKeys(database.db, config.encryption, openStorage(config)),
  );
  for (const [name, count] of Object.entries(counts)) {
    console.log(`${name}: ${count} re-sealed under key ${current.id}`);
  }
  if (fromFile && config.encryption.byId.size > 1) {
    // Nothing is sealed under the older keys any more: the file keeps the current one alone.
    writeFileSync(dataKeyFile(config.dataDir), `${current.key.toString('hex')}\n`, { mode: 0o600 });
    console.log('Older keys removed from the key file: nothing is sealed with them now.');
  }
  console.log(`Every secret at rest is sealed under key ${current.id}.`);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

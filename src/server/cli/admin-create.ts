import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { newPasswordSchema } from '../../shared/auth-schemas';
import { ConfigError, loadConfig } from '../config';
import { DatabaseLockedError, openDatabase } from '../db/client';
import { upsertAdmin } from '../modules/auth/accounts';

const USAGE =
  'Usage: npm run admin:create -- --email E --password P [--first-name F] [--last-name L]';

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
  });
  const input = z
    .object({
      email: z.email('Invalid email address'),
      password: newPasswordSchema,
      firstName: z.string().trim().min(1).max(100).optional(),
      lastName: z.string().trim().min(1).max(100).optional(),
    })
    .safeParse({
      email: values.email?.trim(),
      password: values.password,
      firstName: values['first-name'],
      lastName: values['last-name'],
    });
  if (!values.email || !values.password) throw new ConfigError(USAGE);
  if (!input.success) throw new ConfigError(input.error.issues[0]!.message);

  const config = loadConfig();
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: path.join(config.dataDir, 'db'),
    });
  } catch (error) {
    if (error instanceof DatabaseLockedError) {
      throw new ConfigError(
        `${error.message}\nThe embedded database can only be changed while the server is stopped: stop it, run this command, then start it again.`,
      );
    }
    throw error;
  }
  try {
    await database.migrate();
    const { admin, created } = await upsertAdmin(database.db, input.data, config.bcryptCost);
    console.log(`${created ? 'Created' : 'Updated'} staff account ${admin.email}`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

import path from 'node:path';
import { type AppConfig, ConfigError } from '../config';
import { type Database, DatabaseLockedError, openDatabase } from '../db/client';

/**
 * Opens the database the server uses, migrated, for an operator command (the embedded one only
 * while the server is stopped), and closes it after `work`.
 */
export async function withDatabase<T>(
  config: AppConfig,
  work: (database: Database) => Promise<T>,
): Promise<T> {
  let database: Database;
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
    return await work(database);
  } finally {
    await database.close();
  }
}

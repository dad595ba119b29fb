import { randomBytes } from 'node:crypto';
import { countAdmins, upsertAdmin } from './common/accounts';
import type { Database } from './db/client';

export const BOOTSTRAP_ADMIN_EMAIL = 'admin@cardbridge.local';

/**
 * First start of an empty embedded database: one staff account with a random password,
 * printed once (never a fixed default). Returns the credentials when it made one.
 */
export async function ensureFirstStaffAccount(database: Database, bcryptCost: number) {
  if (database.kind !== 'pglite' || (await countAdmins(database.db)) > 0) return null;
  const password = randomBytes(15).toString('base64url');
  await upsertAdmin(
    database.db,
    { email: BOOTSTRAP_ADMIN_EMAIL, password, firstName: 'Cardbridge', lastName: 'Staff' },
    bcryptCost,
  );
  return { email: BOOTSTRAP_ADMIN_EMAIL, password };
}

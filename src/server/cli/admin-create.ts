import { parseArgs } from 'node:util';
import { z } from 'zod';
import { PASSWORD_TOO_COMMON } from '../../shared/auth-rules';
import { newPasswordSchema } from '../../shared/auth-schemas';
import { findAdminByEmail, normalizeEmail, upsertAdmin } from '../common/accounts';
import { isCommonPassword } from '../common/passwords';
import { PASSWORD_LINKS, revokeTokens } from '../common/tokens';
import { ConfigError, loadConfig } from '../config';
import type { Database } from '../db/client';
import { CHANNEL } from '../live/pg-bridge';
import { resetTwoFactor } from '../modules/auth';
import { deleteAccountSessions } from '../modules/sessions';
import { withDatabase } from './open-database';

const USAGE = [
  'Usage: npm run admin:create -- --email E --password P [--first-name F] [--last-name L]',
  '       npm run admin:create -- --email E --reset-two-factor',
  'The first creates a staff account, or sets the password of an existing one; the second makes',
  'the staff member set up their authenticator again at their next sign-in. Both sign them out.',
].join('\n');

/**
 * Ends every session of the staff member (and sign-ins waiting for their second factor). On
 * PostgreSQL running instances are told at once, as a sign-out through the app tells them.
 */
async function endStaffSessions(database: Database, adminId: string) {
  const ended = await deleteAccountSessions(database.db, { kind: 'admin', id: adminId });
  if (database.kind === 'postgres' && ended.length > 0) {
    const message = JSON.stringify({ from: 'admin-create', endedSids: ended });
    await database.pool.query('select pg_notify($1, $2)', [CHANNEL, message]);
  }
  return ended.length;
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      'reset-two-factor': { type: 'boolean' },
    },
  });
  if (values['reset-two-factor']) {
    if (!values.email || values.password) throw new ConfigError(USAGE);
    await withDatabase(loadConfig(), async (database) => {
      const admin = await findAdminByEmail(database.db, normalizeEmail(values.email!));
      if (!admin) throw new ConfigError(`No staff account has the email ${values.email}`);
      await resetTwoFactor(database.db, { kind: 'admin', id: admin.id });
      const ended = await endStaffSessions(database, admin.id);
      console.log(
        `Two-factor reset for ${admin.email}: they set up their authenticator again at their next sign-in (${ended} session${ended === 1 ? '' : 's'} ended).`,
      );
    });
    return;
  }
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
  if (isCommonPassword(input.data.password)) throw new ConfigError(PASSWORD_TOO_COMMON);

  await withDatabase(loadConfig(), async (database) => {
    const { admin, created } = await upsertAdmin(database.db, input.data, loadConfig().bcryptCost);
    // A new password: reset and sign-in links sent before die with the old one.
    if (!created) {
      await revokeTokens(database.db, PASSWORD_LINKS, { kind: 'admin', id: admin.id }, Date.now());
    }
    const ended = created ? 0 : await endStaffSessions(database, admin.id);
    console.log(
      `${created ? 'Created' : 'Updated'} staff account ${admin.email}${ended ? ` (${ended} session${ended === 1 ? '' : 's'} ended)` : ''}`,
    );
  });
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

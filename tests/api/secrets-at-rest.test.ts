import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rememberSecret, secretOf } from '../../scripts/lib/staff-sign-in';
import { rotateDataKeys } from '../../src/server/cli/sealed-data';
import { upsertAdmin } from '../../src/server/common/accounts';
import { twoFactor } from '../../src/server/db/schema';
import { keyringOf, newDataKeyText, parseDataKey } from '../../src/server/encryption';
import {
  sealTwoFactorSecrets,
  TWO_FACTOR_UNREADABLE,
} from '../../src/server/modules/auth/two-factor';
import { setUpTestApp, signInStaff, uniqueEmail } from './helpers';

const t = setUpTestApp();

/** Every column of every two_factor row, as text: what a copy of the database shows. */
async function storedTwoFactor() {
  const { rows } = await t.database.pool.query<{ row: string; secret: string; account_id: string }>(
    'select two_factor::text as row, secret, account_id from two_factor',
  );
  return rows;
}

describe('secrets at rest (decision 074)', () => {
  it('stores a TOTP secret sealed: the database alone does not reveal it', async () => {
    const email = uniqueEmail('staff');
    const staff = await signInStaff(t, email);
    const secret = secretOf(email)!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const [stored] = (await storedTwoFactor()).filter((r) => r.account_id === staff.user.id);
    expect(stored!.secret).toMatch(/^v1\.[0-9a-f]{16}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(stored!.secret.split('.')[1]).toBe(t.config.encryption.current.id);
    expect(stored!.row).not.toContain(secret);
    expect(stored!.row.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('keeps codes working after keys:rotate, then with the new key alone', async () => {
    const email = uniqueEmail('staff');
    const staff = await signInStaff(t, email);
    const before = await storedTwoFactor();
    const oldKeyring = t.config.encryption;
    const newKey = parseDataKey(newDataKeyText())!;

    // The operator sets the new key and names the old one as previous, then rotates.
    const rotating = keyringOf(newKey, [oldKeyring.current]);
    t.config.encryption = rotating;
    const counts = await rotateDataKeys(t.database.db, rotating, t.app.storage);
    expect(counts['two-factor secrets']).toBe(before.length);
    const after = await storedTwoFactor();
    expect(after.every((r) => r.secret.split('.')[1] === newKey.id)).toBe(true);
    // Run again (as after an interruption): nothing is left to do.
    expect(await rotateDataKeys(t.database.db, rotating, t.app.storage)).toEqual({
      'two-factor secrets': 0,
      'card codes': 0,
      'identity documents': 0,
      'webhook signing secrets': 0,
    });

    t.advance(60_000);
    const again = await signInStaff(t, email);
    expect(again.user.id).toBe(staff.user.id);

    // The old key forgotten: everything still opens.
    t.config.encryption = keyringOf(newKey);
    t.advance(60_000);
    expect((await signInStaff(t, email)).user.id).toBe(staff.user.id);
  });

  it('seals a secret stored in clear before, once, and its codes still work', async () => {
    const email = uniqueEmail('staff');
    const password = 'staff password 1';
    const { admin } = await upsertAdmin(
      t.database.db,
      { email, password, firstName: 'Old', lastName: 'Enrolment' },
      4,
    );
    // As decision 037 stored it: Base32 in clear, enrolment complete.
    const clear = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await t.database.db
      .insert(twoFactor)
      .values({ accountKind: 'admin', accountId: admin.id, secret: clear, enabledAt: new Date() });

    // The start-up step, as two instances starting together would run it.
    const runs = await Promise.all([
      sealTwoFactorSecrets(t.database.db, t.config.encryption, { onlyClear: true }),
      sealTwoFactorSecrets(t.database.db, t.config.encryption, { onlyClear: true }),
    ]);
    expect(runs[0]! + runs[1]!).toBe(1);
    const [row] = await t.database.db
      .select()
      .from(twoFactor)
      .where(eq(twoFactor.accountId, admin.id));
    expect(row!.secret.startsWith('v1.')).toBe(true);
    expect(row!.secret).not.toContain(clear);

    rememberSecret(email, clear);
    t.advance(60_000);
    expect((await signInStaff(t, email, password)).user.id).toBe(admin.id);
  });

  it('refuses sign-in when a sealed secret was altered, and issues no new one', async () => {
    const email = uniqueEmail('staff');
    const staff = await signInStaff(t, email);
    const [row] = await t.database.db
      .select()
      .from(twoFactor)
      .where(eq(twoFactor.accountId, staff.user.id));
    const parts = row!.secret.split('.');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[4] = body.toString('base64url');
    await t.database.db
      .update(twoFactor)
      .set({ secret: parts.join('.') })
      .where(eq(twoFactor.accountId, staff.user.id));
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/admin/signin',
      payload: { email, password: 'staff password 1' },
    });
    // The operator's to fix: refused with a clear reason, and no new secret issued in its place.
    expect(first.statusCode).toBe(503);
    expect(first.json()).toEqual({ message: TWO_FACTOR_UNREADABLE });
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { authTokens } from '../db/schema';
import { queueMail } from '../mail/queue';
import type { Principal } from './account';

export type TokenPurpose =
  | 'password_reset'
  | 'email_verification'
  | 'signin_link'
  | 'staff_invitation'
  | 'email_change';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  password_reset: 30 * 60 * 1000,
  email_verification: 48 * 60 * 60 * 1000,
  signin_link: 15 * 60 * 1000,
  // An invitation to join the staff (decision 077): 72 hours.
  staff_invitation: 72 * 60 * 60 * 1000,
  // A new address for the account, confirmed from the link sent to it (issue 22, item 3).
  email_change: 48 * 60 * 60 * 1000,
};

/**
 * Whether a new token ends the unused ones of its purpose ("only the newest link works"). A
 * sign-in link does not: one mailed while an attack goes on must not kill the one its owner is
 * about to open.
 */
const NEWEST_ONLY: Record<TokenPurpose, boolean> = {
  password_reset: true,
  email_verification: true,
  signin_link: false,
  staff_invitation: true,
  email_change: true,
};

/**
 * The links that stand in for the password: a new password (changed or reset) ends every one
 * still out. (A confirmation link only confirms an address, so it outlives the password.)
 */
export const PASSWORD_LINKS: TokenPurpose[] = ['password_reset', 'signin_link'];

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new single-use token for a link sent to `email`: 256 random bits, of which only the SHA-256
 * is stored. Earlier unused tokens of the same purpose stop working where only the newest link
 * counts (NEWEST_ONLY).
 */
export async function issueToken(
  db: Db,
  purpose: TokenPurpose,
  account: Principal,
  email: string,
  now: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    if (NEWEST_ONLY[purpose]) await revokeTokens(tx, purpose, account, now);
    await tx.insert(authTokens).values({
      tokenHash: hashOf(token),
      purpose,
      accountKind: account.kind,
      accountId: account.id,
      email,
      expiresAt: new Date(now + TOKEN_LIFETIME_MS[purpose]),
      createdAt: new Date(now),
    });
  });
  return token;
}

/** The token's row whatever its state (used, expired), or undefined when there is none. */
export async function findToken(db: Db, purpose: TokenPurpose, token: string) {
  const [row] = await db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.tokenHash, hashOf(token)), eq(authTokens.purpose, purpose)));
  return row;
}

/**
 * Uses the token up: the row when it was unused and unexpired, else undefined. One statement, so
 * of two requests racing with the same link only one gets it.
 */
export async function consumeToken(db: Db, purpose: TokenPurpose, token: string, now: number) {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        eq(authTokens.tokenHash, hashOf(token)),
        eq(authTokens.purpose, purpose),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, new Date(now)),
      ),
    )
    .returning();
  return row;
}

/** Every unused token of `purpose` (or of each purpose listed) for the account stops working. */
export function revokeTokens(
  db: Db,
  purpose: TokenPurpose | TokenPurpose[],
  account: Principal,
  now: number,
) {
  return db
    .update(authTokens)
    .set({ usedAt: new Date(now) })
    .where(
      and(
        inArray(authTokens.purpose, [purpose].flat()),
        eq(authTokens.accountKind, account.kind),
        eq(authTokens.accountId, account.id),
        isNull(authTokens.usedAt),
      ),
    );
}

export const principalOf = (row: { accountKind: string; accountId: string }): Principal => ({
  kind: row.accountKind === 'admin' ? 'admin' : 'user',
  id: row.accountId,
});

/** Tokens a day past their expiry (swept hourly); until then a late click can be told it expired. */
export async function deleteExpiredTokens(db: Db, now: number): Promise<number> {
  const removed = await db
    .delete(authTokens)
    .where(lt(authTokens.expiresAt, new Date(now - 24 * 60 * 60 * 1000)))
    .returning({ id: authTokens.id });
  return removed.length;
}

type Addressee = { id: string; email: string; firstName: string | null };

/**
 * Queues the email with the link that confirms a customer's address, inside the caller's
 * transaction (a sign-up's); the caller kicks the mail queue after the commit.
 */
export async function queueVerificationEmail(db: Db, now: number, appUrl: string, user: Addressee) {
  const token = await issueToken(
    db,
    'email_verification',
    { kind: 'user', id: user.id },
    user.email,
    now,
  );
  await queueMail(db, now, user.email, 'verify-email', {
    firstName: user.firstName,
    link: `${appUrl}/verify-email?token=${token}`,
  });
}

/** Mails a customer the link that confirms their address again, on request. */
export async function sendVerificationEmail(app: FastifyInstance, user: Addressee) {
  await queueVerificationEmail(app.db, app.now(), app.config.appUrl, user);
  app.mail.kick();
}

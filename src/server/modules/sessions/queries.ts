import Bowser from 'bowser';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { type Account, type Principal, toAccount } from '../../common/account';
import type { SessionData, StoredSession } from '../../common/session-cache';
import type { Database, Db } from '../../db/client';
import { sessions } from '../../db/schema';

/** "Chrome 131" and "Windows 10" from a user agent; null parts when it does not say. */
export function describeAgent(userAgent: string | undefined) {
  if (!userAgent) return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  const version = parsed.browser.version?.split('.')[0];
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ');
  return {
    browser: parsed.browser.name ? [parsed.browser.name, version].filter(Boolean).join(' ') : null,
    system: os || null,
  };
}

/** An account's sessions still alive, the most recently used first. */
export function accountSessions(db: Db, account: Principal, now: number) {
  return db
    .select({
      sid: sessions.sid,
      publicId: sessions.publicId,
      sess: sessions.sess,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.accountKind, account.kind),
        eq(sessions.accountId, account.id),
        gt(sessions.expire, new Date(now)),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

/**
 * Sessions not in memory are read, not written: the plugin asks for every session wanted while its
 * previous read ran in one statement (db/batch.ts, decision 075), each with its account.
 */
const READ_SESSIONS = {
  name: 'cardbridge-read-sessions',
  text: `
    select s.sid, s.sess, s.account_kind, s.created_at, s.expire,
           u.id as user_id, u.email as user_email, u.first_name as user_first_name,
           u.last_name as user_last_name, u.created_at as user_created_at,
           u.profile_image_url as user_profile_image_url, u.is_admin as user_is_admin,
           u.email_verified_at as user_email_verified_at,
           u.email_notifications as user_email_notifications,
           u.standing as user_standing, u.verification_level as user_verification_level,
           a.id as admin_id, a.email as admin_email, a.first_name as admin_first_name,
           a.last_name as admin_last_name, a.created_at as admin_created_at,
           a.role as admin_role, a.active as admin_active
      from sessions s
      left join users u on s.account_kind = 'user' and u.id = s.account_id
      left join admins a on s.account_kind = 'admin' and a.id = s.account_id
     where s.sid = any($1::text[])`,
};

interface SessionRow {
  sid: string;
  sess: SessionData | null;
  account_kind: Principal['kind'] | null;
  created_at: Date;
  expire: Date;
  user_id: string | null;
  user_email: string;
  user_first_name: string | null;
  user_last_name: string | null;
  user_created_at: Date;
  user_profile_image_url: string | null;
  user_is_admin: boolean | null;
  user_email_verified_at: Date | null;
  user_email_notifications: boolean;
  user_standing: string;
  user_verification_level: number;
  admin_id: string | null;
  admin_email: string;
  admin_first_name: string | null;
  admin_last_name: string | null;
  admin_created_at: Date;
  admin_role: string;
  admin_active: boolean;
}

function accountOfRow(row: SessionRow): Account | null {
  if (row.account_kind === 'user' && row.user_id) {
    return toAccount('user', {
      id: row.user_id,
      email: row.user_email,
      firstName: row.user_first_name,
      lastName: row.user_last_name,
      createdAt: row.user_created_at,
      profileImageUrl: row.user_profile_image_url,
      isAdmin: row.user_is_admin === true,
      emailVerifiedAt: row.user_email_verified_at,
      emailNotifications: row.user_email_notifications,
      standing: row.user_standing,
      verificationLevel: row.user_verification_level,
    });
  }
  // A deactivated staff member's session leads nowhere (decision 077).
  if (row.account_kind === 'admin' && row.admin_id && row.admin_active !== false) {
    return toAccount('admin', {
      id: row.admin_id,
      email: row.admin_email,
      firstName: row.admin_first_name,
      lastName: row.admin_last_name,
      createdAt: row.admin_created_at,
      role: row.admin_role,
    });
  }
  return null;
}

/** The sessions of `sids` that exist, by id, with their accounts: one statement. */
export async function readSessions(
  database: Database,
  sids: string[],
): Promise<Map<string, StoredSession>> {
  const { rows } = await database.pool.query<SessionRow>({ ...READ_SESSIONS, values: [sids] });
  return new Map(
    rows.map((row) => [
      row.sid,
      {
        sid: row.sid,
        data: row.sess ?? {},
        kind: row.account_kind,
        account: accountOfRow(row),
        createdAt: row.created_at.getTime(),
        expire: row.expire.getTime(),
      },
    ]),
  );
}

/**
 * When the password (or a code) was last given in the session (decision 072), from its row: every
 * instance agrees at once. Null when never, or when the session is gone.
 */
export async function reauthAtOf(db: Db, sid: string): Promise<number | null> {
  const [row] = await db
    .select({ at: sql<string | null>`${sessions.sess}->>'reauthAt'` })
    .from(sessions)
    .where(eq(sessions.sid, sid));
  return row?.at ? Number(row.at) : null;
}

/** A customer's sessions still alive, as staff read them (the customer page, issue 43 item 15). */
export async function customerSessions(db: Db, userId: string, now: number) {
  const rows = await accountSessions(db, { kind: 'user', id: userId }, now);
  return rows.map((row) => {
    const data = (row.sess ?? {}) as SessionData;
    return {
      id: row.publicId,
      ...describeAgent(data.userAgent),
      ipAddress: data.ip ?? null,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt.toISOString(),
    };
  });
}

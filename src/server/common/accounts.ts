import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { admins, users } from '../db/schema';
import type { Principal } from './account';
import { HttpError } from './http-error';
import { hashPassword } from './passwords';

export { hashPassword } from './passwords';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const ACCOUNT_EXISTS = 'An account with this email already exists';

/** 409 for an email already taken, whatever its case (PRODUCT.md): sign-up and an email change. */
export const accountExists = () => new HttpError(409, ACCOUNT_EXISTS, { email: ACCOUNT_EXISTS });

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, normalizeEmail(email)));
  return row;
}

/** The columns of a customer's name and email, never their password hash. */
export const nameAndEmail = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
};

/** A customer's name and email, never their password hash. */
export async function findUserById(db: Db, id: string) {
  const [row] = await db.select(nameAndEmail).from(users).where(eq(users.id, id));
  return row;
}

export async function findAdminByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(admins)
    .where(eq(sql`lower(${admins.email})`, normalizeEmail(email)));
  return row;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export interface StaffInput {
  email: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
}

/** Creates a staff account, or resets the password (and names, when given) of an existing one. */
export async function upsertAdmin(db: Db, input: StaffInput, cost: number) {
  const email = normalizeEmail(input.email);
  const password = await hashPassword(input.password, cost);
  const existing = await findAdminByEmail(db, email);
  if (existing) {
    const [row] = await db
      .update(admins)
      .set({
        password,
        firstName: input.firstName ?? existing.firstName,
        lastName: input.lastName ?? existing.lastName,
        updatedAt: new Date(),
      })
      .where(eq(admins.id, existing.id))
      .returning();
    return { admin: row!, created: false };
  }
  const [row] = await db
    .insert(admins)
    .values({
      email,
      password,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
    })
    .returning();
  return { admin: row!, created: true };
}

export async function countAdmins(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(admins);
  return row?.n ?? 0;
}

/** Stores a new password hash; the account's email and first name, or undefined if it is gone. */
export async function setPassword(db: Db, account: Principal, hash: string, now: number) {
  const set = { password: hash, updatedAt: new Date(now) };
  const [row] =
    account.kind === 'admin'
      ? await db
          .update(admins)
          .set(set)
          .where(eq(admins.id, account.id))
          .returning({ email: admins.email, firstName: admins.firstName })
      : await db
          .update(users)
          .set(set)
          .where(eq(users.id, account.id))
          .returning({ email: users.email, firstName: users.firstName });
  return row;
}

/** The account's row (a customer's or a staff member's), or undefined when it is gone. */
export async function findAccountRow(db: Db, account: Principal) {
  return account.kind === 'admin'
    ? (await db.select().from(admins).where(eq(admins.id, account.id)))[0]
    : (await db.select().from(users).where(eq(users.id, account.id)))[0];
}

export async function passwordHashOf(db: Db, account: Principal): Promise<string | undefined> {
  const table = account.kind === 'admin' ? admins : users;
  const [row] = await db
    .select({ password: table.password })
    .from(table)
    .where(eq(table.id, account.id));
  return row?.password;
}

/** Whether the customer's current address is `email` and confirmed. */
export async function isConfirmed(db: Db, userId: string, email: string): Promise<boolean> {
  const [user] = await db
    .select({ verifiedAt: users.emailVerifiedAt, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return !!user?.verifiedAt && user.email === email;
}

/** Who the customer is, as staff see it beside a card, a chat or a verification (joins `users`). */
export const customerColumns = {
  userEmail: users.email,
  userFirstName: users.firstName,
  userLastName: users.lastName,
};

/**
 * Locks the customer's row until the caller's transaction ends: two submissions of one account
 * then count and insert one after the other, so both cannot take the last of an allowance. Answers
 * the account's level and standing as they are under the lock.
 *
 * Every lock the app takes on a customer's row is FOR NO KEY UPDATE, never FOR UPDATE: inserting a
 * row that points at the account (a card, a notification) takes KEY SHARE on it, which FOR UPDATE
 * waits for. Two transactions that had each inserted such a row and then locked the account
 * deadlocked (two rejections of one customer's cards at once, on PostgreSQL).
 */
export async function lockAccount(db: Db, userId: string) {
  const [row] = await db
    .select({ verificationLevel: users.verificationLevel, standing: users.standing })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row;
}

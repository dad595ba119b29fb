import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import {
  ACCOUNT_HAS_OPEN_ITEMS,
  type DeletionResult,
  EXPORT_HOURS,
  EXPORT_LIMIT_CODE,
  exportLimitMessage,
  OPEN_ITEM_LABELS,
  type OpenItem,
  type OpenItemReason,
  openItemsMessage,
} from '../../../shared/privacy';
import type { Account } from '../../common/account';
import { lockAccount } from '../../common/accounts';
import { type AuditActor, recordAudit } from '../../common/audit';
import {
  type Change,
  type CommandContext,
  change,
  type Outcome,
  STAFF,
} from '../../common/command';
import { HttpError, notFound } from '../../common/http-error';
import { hashPassword } from '../../common/passwords';
import type { Db } from '../../db/client';
import {
  accountDevices,
  apiKeys,
  auditLog,
  authTokens,
  chatConversations,
  chatMessages,
  customerNotes,
  dataExports,
  feedback,
  mailOutbox,
  notificationEmails,
  notifications,
  paymentMethods,
  supportTickets,
  transactions,
  uploads,
  users,
  verificationSubmissions,
  webhookEndpoints,
} from '../../db/schema';
import { queueMail } from '../../mail/queue';
import { exportKey } from '../../storage/object-storage';
import { AWAITING_PAYMENT, eraseCustomerWords } from '../cards';
import { deleteAccountSessions } from '../sessions';

const HOUR_MS = 60 * 60 * 1000;

// --- Export (issue 22, item 1; decision 083) ---

/**
 * A customer asks for an export of their data: one per 24 hours, counted under the account's
 * row lock so that requests sent at once make one export. The job builds it (buildExports).
 */
export async function requestExport(
  context: CommandContext,
  userId: string,
): Promise<Outcome<{ id: string; status: 'pending' }>> {
  return context.db.transaction(async (tx) => {
    if (!(await lockAccount(tx, userId))) throw new HttpError(401, 'Unauthorized');
    const now = context.now();
    const [recent] = await tx
      .select({ createdAt: dataExports.createdAt })
      .from(dataExports)
      .where(
        and(
          eq(dataExports.userId, userId),
          ne(dataExports.status, 'failed'),
          gt(dataExports.createdAt, new Date(now - EXPORT_HOURS * HOUR_MS)),
        ),
      )
      .orderBy(desc(dataExports.createdAt))
      .limit(1);
    if (recent) {
      const retryAt = new Date(recent.createdAt.getTime() + EXPORT_HOURS * HOUR_MS);
      throw new HttpError(429, exportLimitMessage, undefined, {
        code: EXPORT_LIMIT_CODE,
        until: retryAt.toISOString(),
      });
    }
    const [row] = await tx
      .insert(dataExports)
      .values({ userId, createdAt: new Date(now) })
      .returning({ id: dataExports.id });
    return {
      value: { id: row!.id, status: 'pending' as const },
      changed: [change([userId], ['account'])],
    };
  });
}

/** A build that has not finished in this long stopped with its instance: it is started again. */
const STALLED_BUILD_MS = 15 * 60 * 1000;

/** Takes the next export waiting to be built (or one whose build stalled), for this instance. */
export async function claimExport(context: CommandContext) {
  const now = new Date(context.now());
  const { rows } = await context.db.execute<{ id: string; user_id: string }>(sql`
    update ${dataExports} set status = 'building', started_at = ${now}
     where id = (select id from ${dataExports}
                  where status = 'pending'
                     or (status = 'building' and started_at < ${new Date(now.getTime() - STALLED_BUILD_MS)})
                  order by created_at limit 1 for update skip locked)
     returning id, user_id`);
  return rows[0] ? { id: rows[0].id, userId: rows[0].user_id } : null;
}

/** The export is built: downloadable for 24 hours; the customer is told in the app and by email. */
export async function exportReady(
  context: CommandContext,
  built: { id: string; userId: string },
  size: number,
): Promise<Outcome<void>> {
  return context.db.transaction(async (tx) => {
    const now = context.now();
    const [user] = await tx
      .select({ email: users.email, firstName: users.firstName, deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, built.userId));
    await tx
      .update(dataExports)
      .set({
        status: 'ready',
        objectKey: exportKey(built.id),
        size,
        readyAt: new Date(now),
        expiresAt: new Date(now + EXPORT_HOURS * HOUR_MS),
      })
      .where(eq(dataExports.id, built.id));
    if (!user || user.deletedAt) return { value: undefined, changed: [] };
    const link = '/profile?tab=privacy';
    await tx.insert(notifications).values({
      userId: built.userId,
      kind: 'account',
      title: 'Your data export is ready',
      body: `Download it from your profile within ${EXPORT_HOURS} hours.`,
      link,
      createdAt: new Date(now),
    });
    // Transactional: the customer asked for it, so it goes whatever their email choices.
    await queueMail(tx, now, user.email, 'export-ready', {
      firstName: user.firstName,
      link: `${context.config.appUrl}${link}`,
      hours: EXPORT_HOURS,
    });
    return { value: undefined, changed: [change([built.userId], ['account', 'notifications'])] };
  });
}

export async function exportFailed(
  context: CommandContext,
  built: { id: string; userId: string },
): Promise<Outcome<void>> {
  await context.db
    .update(dataExports)
    .set({ status: 'failed', objectKey: null })
    .where(eq(dataExports.id, built.id));
  return { value: undefined, changed: [change([built.userId], ['account'])] };
}

/** Exports past their 24 hours: the file is deleted and the row says so. Answers the count. */
export async function expireExports(context: CommandContext): Promise<Outcome<number>> {
  const due = await context.db
    .select({ id: dataExports.id, userId: dataExports.userId, objectKey: dataExports.objectKey })
    .from(dataExports)
    .where(
      and(eq(dataExports.status, 'ready'), lte(dataExports.expiresAt, new Date(context.now()))),
    )
    .limit(500);
  for (const row of due) {
    if (row.objectKey) await context.storage.delete(row.objectKey);
    await context.db
      .update(dataExports)
      .set({ status: 'expired', objectKey: null })
      .where(eq(dataExports.id, row.id));
  }
  const users = [...new Set(due.map((r) => r.userId))];
  return { value: due.length, changed: users.length ? [change(users, ['account'])] : [] };
}

// --- Deletion (issue 22, item 2; decision 083) ---

/** What keeps the account from being deleted now: each open card, and why. */
export async function openItemsOf(db: Db, userId: string): Promise<OpenItem[]> {
  const rows = await db
    .select({
      transactionId: transactions.id,
      cardType: transactions.cardType,
      cardValue: transactions.cardValue,
      underReview: sql<boolean>`${transactions.status} = 'pending'`,
      owed: sql<boolean>`coalesce(${AWAITING_PAYMENT}, false)`,
      appeal: sql<boolean>`${transactions.appealStatus} is not distinct from 'pending'`,
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        or(
          inArray(transactions.status, ['pending', 'processing']),
          AWAITING_PAYMENT,
          eq(transactions.appealStatus, 'pending'),
        ),
      ),
    )
    .orderBy(transactions.createdAt);
  return rows.map(({ underReview, owed, appeal, ...card }) => {
    const reason: OpenItemReason = appeal
      ? 'appeal_pending'
      : owed
        ? 'payout_owed'
        : underReview
          ? 'under_review'
          : 'payout_owed';
    return { ...card, reason, label: OPEN_ITEM_LABELS[reason] };
  });
}

const anonymousEmail = (userId: string) => `deleted-${userId}@invalid`;
/** What a payee detail keeps for staff records: its last 4 characters. */
const last4 = (value: string | null) => (value ? value.slice(-4) : null);

/**
 * Deletes a customer's account (decision 083): refused with the open items while a card is under
 * review, owed money or appealed, unless `whenSettled` asks for it to happen once they settle.
 * Otherwise, in one transaction: a goodbye email to the address, then the name, the email, the
 * payee details but their last 4, chat, tickets, notifications, sessions, devices, tokens, API
 * keys, webhook endpoints and identity documents erased; cards, amounts and audit rows stay, pointing at the anonymous
 * account. The files go from storage after the commit (the hourly sweep catches any left).
 */
export async function eraseAccount(
  context: CommandContext,
  userId: string,
  by: { actor: AuditActor | Account; staff: boolean; whenSettled?: boolean },
): Promise<Outcome<DeletionResult>> {
  const erased: string[] = [];
  const outcome = await context.db.transaction(async (tx): Promise<Outcome<DeletionResult>> => {
    const [user] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for('no key update');
    if (!user) throw notFound('User not found');
    const now = new Date(context.now());
    const items = await openItemsOf(tx, userId);
    if (items.length > 0) {
      if (!by.whenSettled) {
        throw new HttpError(409, openItemsMessage(items.length), undefined, {
          code: ACCOUNT_HAS_OPEN_ITEMS,
          items,
        });
      }
      await tx.update(users).set({ deletionRequestedAt: now }).where(eq(users.id, userId));
      await recordAudit(tx, by.actor, {
        entityType: 'user',
        entityId: userId,
        action: 'request_deletion',
        changes: { deletionRequestedAt: { from: null, to: now.toISOString() } },
      });
      return {
        value: { deleted: false, scheduled: true, items },
        changed: [change([userId], ['account']), change([STAFF], ['users'])],
      };
    }

    // The goodbye goes first, to the address about to be erased (the queue forgets it once sent).
    await queueMail(tx, now.getTime(), user.email, 'account-deleted', {
      firstName: user.firstName,
      byStaff: by.staff,
    });
    const files = await tx
      .delete(uploads)
      .where(
        or(
          and(eq(uploads.ownerUserId, userId), ne(uploads.kind, 'card')),
          eq(uploads.conversationUserId, userId),
        ),
      )
      .returning({ key: uploads.key });
    erased.push(...files.map((f) => f.key));
    const ended = await deleteAccountSessions(tx, { kind: 'user', id: userId });
    await tx.delete(chatMessages).where(eq(chatMessages.userId, userId));
    await tx.delete(chatConversations).where(eq(chatConversations.userId, userId));
    await tx
      .delete(supportTickets)
      .where(
        or(
          eq(supportTickets.userId, userId),
          sql`lower(${supportTickets.email}) = lower(${user.email})`,
        ),
      );
    await tx.delete(notifications).where(eq(notifications.userId, userId));
    // Staff's notes about the customer go with them (decision 144).
    await tx.delete(customerNotes).where(eq(customerNotes.userId, userId));
    await tx.delete(notificationEmails).where(eq(notificationEmails.userId, userId));
    await tx
      .delete(accountDevices)
      .where(and(eq(accountDevices.accountKind, 'user'), eq(accountDevices.accountId, userId)));
    await tx
      .delete(authTokens)
      .where(and(eq(authTokens.accountKind, 'user'), eq(authTokens.accountId, userId)));
    // The partner API (issue 42): its keys and webhook endpoints (their log with them) go too.
    await tx.delete(apiKeys).where(eq(apiKeys.userId, userId));
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
    // Mail not sent yet to the address is dropped; mail sent keeps no address.
    await tx
      .delete(mailOutbox)
      .where(
        and(
          sql`lower(${mailOutbox.toAddress}) = lower(${user.email})`,
          ne(mailOutbox.template, 'account-deleted'),
          eq(mailOutbox.status, 'pending'),
        ),
      );
    await tx
      .update(mailOutbox)
      .set({ toAddress: 'erased@invalid' })
      .where(
        and(
          sql`lower(${mailOutbox.toAddress}) = lower(${user.email})`,
          ne(mailOutbox.status, 'pending'),
        ),
      );
    // Exports lapse now: the expiry job deletes their files.
    await tx
      .update(dataExports)
      .set({ expiresAt: now })
      .where(and(eq(dataExports.userId, userId), eq(dataExports.status, 'ready')));
    await tx
      .delete(dataExports)
      .where(
        and(eq(dataExports.userId, userId), inArray(dataExports.status, ['pending', 'failed'])),
      );
    await tx
      .update(verificationSubmissions)
      .set({
        legalFirstName: null,
        legalLastName: null,
        dateOfBirth: null,
        addressLine1: null,
        addressLine2: null,
        city: null,
        region: null,
        postalCode: null,
        documentImages: [],
        selfieImage: null,
        proofImages: [],
        documentsDeletedAt: now,
      })
      .where(eq(verificationSubmissions.userId, userId));
    const methods = await tx.select().from(paymentMethods).where(eq(paymentMethods.userId, userId));
    for (const method of methods) {
      await tx
        .update(paymentMethods)
        .set({
          accountName: '',
          identifier: last4(method.identifier),
          accountNumber: last4(method.accountNumber),
          bankName: null,
          routingNumber: null,
          isDefault: false,
          deletedAt: method.deletedAt ?? now,
        })
        .where(eq(paymentMethods.id, method.id));
    }
    await eraseCustomerWords(tx, userId);
    await tx.update(feedback).set({ comment: null }).where(eq(feedback.userId, userId));
    await tx
      .update(users)
      .set({
        email: anonymousEmail(userId),
        password: await hashPassword(randomBytes(24).toString('base64url'), 4),
        firstName: null,
        lastName: null,
        profileImageUrl: null,
        emailVerifiedAt: null,
        emailNotifications: false,
        emailDigests: false,
        standing: 'closed',
        standingReason: 'Account deleted',
        standingNote: null,
        standingChangedAt: now,
        deletionRequestedAt: null,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
    // The customer's own audit rows (offers answered, appeals) name the anonymous address.
    await tx
      .update(auditLog)
      .set({ actorEmail: anonymousEmail(userId) })
      .where(and(eq(auditLog.actorKind, 'user'), eq(auditLog.actorId, userId)));
    const actor =
      'kind' in by.actor && by.actor.kind === 'user'
        ? { ...by.actor, email: anonymousEmail(userId) }
        : by.actor;
    await recordAudit(tx, actor, {
      entityType: 'user',
      entityId: userId,
      action: 'erase',
      changes: { deletedAt: { from: null, to: now.toISOString() } },
    });
    return {
      value: { deleted: true },
      changed: [
        { sessionsEnded: ended },
        change([STAFF], ['users', 'queue', 'chats', 'staff-tickets', 'admin-stats']),
      ] satisfies Change[],
    };
  });
  for (const key of erased) {
    await context.storage.delete(key).catch(() => undefined);
  }
  return outcome;
}

/** Accounts whose deletion waited for their cards to settle, now settled: erased. */
export async function eraseSettledAccounts(context: CommandContext): Promise<Outcome<number>> {
  const waiting = await context.db
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.deletionRequestedAt), isNull(users.deletedAt)))
    .limit(200);
  let erased = 0;
  const changed: Change[] = [];
  for (const { id } of waiting) {
    if ((await openItemsOf(context.db, id)).length > 0) continue;
    const done = await eraseAccount(context, id, {
      actor: { kind: 'user', id, email: anonymousEmail(id) },
      staff: false,
    }).catch((error: unknown) => {
      // Erased meanwhile (staff, or the customer again): nothing left to do.
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    });
    if (!done) continue;
    changed.push(...done.changed);
    erased++;
  }
  return { value: erased, changed };
}

import { PassThrough } from 'node:stream';
import archiver from 'archiver';
import { and, asc, eq, getTableColumns, inArray, isNull } from 'drizzle-orm';
import { toCsv } from '../../../shared/csv';
import type { CommandContext } from '../../common/command';
import type { Db } from '../../db/client';
import {
  accountDevices,
  apiKeys,
  chatMessages,
  customerNotes,
  feedback,
  notifications,
  paymentMethods,
  sessions,
  supportTickets,
  ticketReplies,
  transactions,
  uploads,
  users,
  verificationSubmissions,
  webhookEndpoints,
} from '../../db/schema';
import { cardTimeline } from '../cards';
import { openStoredDocument } from '../files';
import { statementCsvRows, wholeStatement } from '../ledger';

/**
 * What an export holds (issue 22, item 1; decision 083): one JSON file per kind of data, and
 * every file the customer uploaded that is still stored, under `files/<folder>/`. Secrets the
 * customer never typed or that open anything stay out: the password hash, session tokens, the
 * sealed card code (its last 4 are in cards.json), an API key's hash (its last 4 are in
 * partner-api.json) and a webhook endpoint's signing secret.
 */
export const EXPORT_SECTIONS = [
  'account',
  'payment-methods',
  'cards',
  'chat',
  'tickets',
  'notifications',
  'sessions',
  'verification',
  'statement',
  // Notes staff wrote about the customer (decision 144): the words and when, not who.
  'staff-notes',
  'partner-api',
] as const;

async function sectionsOf(db: Db, userId: string) {
  const [account] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      emailVerifiedAt: users.emailVerifiedAt,
      statusUpdateEmails: users.emailNotifications,
      digestEmails: users.emailDigests,
      verificationLevel: users.verificationLevel,
      standing: users.standing,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  const methods = await db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.userId, userId))
    .orderBy(asc(paymentMethods.createdAt));
  const { cardCode: _code, cardCodeHash: _hash, ...cardColumns } = getTableColumns(transactions);
  const cardRows = await db
    .select({ ...cardColumns, feedbackRating: feedback.rating, feedbackComment: feedback.comment })
    .from(transactions)
    .leftJoin(feedback, eq(feedback.transactionId, transactions.id))
    .where(eq(transactions.userId, userId))
    .orderBy(asc(transactions.createdAt));
  const cards = [];
  for (const {
    claimedById: _by,
    claimedByName: _name,
    claimedUntil: _until,
    validationStatus: _checks,
    ...card
  } of cardRows) {
    cards.push({
      ...card,
      statusHistory: await cardTimeline(db, card.id, { ownerId: userId, withBy: false }),
    });
  }
  const tickets = await db
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(asc(supportTickets.createdAt));
  const replies = tickets.length
    ? await db
        .select({
          ticketId: ticketReplies.ticketId,
          authorKind: ticketReplies.authorKind,
          authorName: ticketReplies.authorName,
          message: ticketReplies.message,
          createdAt: ticketReplies.createdAt,
        })
        .from(ticketReplies)
        .where(
          inArray(
            ticketReplies.ticketId,
            tickets.map((t) => t.id),
          ),
        )
        .orderBy(asc(ticketReplies.createdAt))
    : [];
  return {
    account,
    'payment-methods': methods.map(({ userId: _u, ...method }) => method),
    cards,
    chat: (
      await db
        .select()
        .from(chatMessages)
        .where(eq(chatMessages.userId, userId))
        .orderBy(asc(chatMessages.createdAt))
    ).map(({ userId: _u, ...message }) => message),
    tickets: tickets.map(({ userId: _u, ...ticket }) => ({
      ...ticket,
      replies: replies.filter((r) => r.ticketId === ticket.id),
    })),
    notifications: (
      await db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, userId))
        .orderBy(asc(notifications.createdAt))
    ).map(({ userId: _u, ...notice }) => notice),
    sessions: {
      signedIn: await db
        .select({
          id: sessions.publicId,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expire,
        })
        .from(sessions)
        .where(and(eq(sessions.accountKind, 'user'), eq(sessions.accountId, userId))),
      devices: await db
        .select({
          userAgent: accountDevices.userAgent,
          ip: accountDevices.ip,
          firstSeenAt: accountDevices.firstSeenAt,
          lastSeenAt: accountDevices.lastSeenAt,
        })
        .from(accountDevices)
        .where(and(eq(accountDevices.accountKind, 'user'), eq(accountDevices.accountId, userId))),
    },
    verification: (
      await db
        .select()
        .from(verificationSubmissions)
        .where(eq(verificationSubmissions.userId, userId))
        .orderBy(asc(verificationSubmissions.createdAt))
    ).map(({ userId: _u, decidedBy: _by, ...submission }) => submission),
    // The seller's account with us (issue 39): every entry, oldest first; also statement.csv.
    statement: await wholeStatement(db, userId),
    'staff-notes': await db
      .select({ note: customerNotes.body, createdAt: customerNotes.createdAt })
      .from(customerNotes)
      .where(eq(customerNotes.userId, userId))
      .orderBy(asc(customerNotes.createdAt), asc(customerNotes.id)),
    // The partner API (issue 42): keys without their hash, endpoints without their secret.
    'partner-api': {
      apiKeys: await db
        .select({
          id: apiKeys.id,
          name: apiKeys.name,
          last4: apiKeys.last4,
          scopes: apiKeys.scopes,
          createdAt: apiKeys.createdAt,
          expiresAt: apiKeys.expiresAt,
          lastUsedAt: apiKeys.lastUsedAt,
          lastUsedIp: apiKeys.lastUsedIp,
          revokedAt: apiKeys.revokedAt,
        })
        .from(apiKeys)
        .where(eq(apiKeys.userId, userId))
        .orderBy(asc(apiKeys.createdAt)),
      webhookEndpoints: await db
        .select({
          id: webhookEndpoints.id,
          url: webhookEndpoints.url,
          events: webhookEndpoints.events,
          createdAt: webhookEndpoints.createdAt,
          disabledAt: webhookEndpoints.disabledAt,
        })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.userId, userId))
        .orderBy(asc(webhookEndpoints.createdAt)),
    },
  } satisfies Record<(typeof EXPORT_SECTIONS)[number], unknown>;
}

/**
 * Builds the customer's export into `key`: the ZIP is written as it is made, straight into
 * storage (a stream to disk or to S3 alike), with each stored file streamed in turn, so no copy
 * of the whole is ever held in memory or written anywhere first. Answers its size in bytes.
 */
export async function writeExport(
  context: Pick<CommandContext, 'db' | 'storage' | 'config'>,
  userId: string,
  key: string,
) {
  const { db, storage } = context;
  const sections = await sectionsOf(db, userId);
  const files = await db
    .select({ key: uploads.key, kind: uploads.kind })
    .from(uploads)
    .where(and(eq(uploads.ownerUserId, userId), isNull(uploads.removedAt)))
    .orderBy(asc(uploads.createdAt));

  const zip = archiver('zip', { zlib: { level: 6 } });
  const out = new PassThrough();
  zip.pipe(out);
  const stored = storage.put(key, out, 'application/zip');
  // A failure on either side stops both: the storage drops a partial object.
  zip.on('error', (error) => out.destroy(error));
  const missing: string[] = [];
  try {
    const generatedAt = new Date().toISOString();
    for (const section of EXPORT_SECTIONS) {
      zip.append(`${JSON.stringify(sections[section], null, 2)}\n`, { name: `${section}.json` });
    }
    zip.append(toCsv(statementCsvRows(sections.statement)), { name: 'statement.csv' });
    for (const file of files) {
      const object = await storage.get(file.key);
      if (!object) {
        missing.push(file.key);
        continue;
      }
      if (file.kind === 'verification') {
        // A sealed identity document, opened for its owner (at most 10 MB).
        zip.append(await openStoredDocument(context.config.encryption, object), {
          name: `files/${file.key}`,
        });
        continue;
      }
      zip.append(object.body, { name: `files/${file.key}` });
      // One file at a time: the next is opened once this one is in the archive.
      await new Promise<void>((resolve, reject) => {
        object.body.once('end', resolve);
        object.body.once('error', reject);
      });
    }
    zip.append(
      `${JSON.stringify({ generatedAt, userId, sections: EXPORT_SECTIONS, files: files.length - missing.length, missing }, null, 2)}\n`,
      { name: 'README.json' },
    );
    await zip.finalize();
  } catch (error) {
    zip.abort();
    out.destroy(error as Error);
    await stored.catch(() => undefined);
    throw error;
  }
  await stored;
  // The bytes the archive wrote, which the storage received.
  return zip.pointer();
}

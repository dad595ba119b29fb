import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import type { RateTier } from '../../shared/rates';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** Money: numeric(10,2) in SQL, a decimal string in TypeScript (never a float). */
const money = (name: string) => numeric(name, { precision: 10, scale: 2 });

export const users = pgTable(
  'users',
  {
    id: id(),
    email: varchar('email', { length: 254 }).notNull().unique(),
    password: text('password').notNull(),
    firstName: varchar('first_name', { length: 100 }),
    lastName: varchar('last_name', { length: 100 }),
    profileImageUrl: text('profile_image_url'),
    isAdmin: boolean('is_admin').notNull().default(false),
    /** When the customer opened the link mailed to this address; null until then. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Whether staff decisions and replies are also sent by email (in-app always). */
    emailNotifications: boolean('email_notifications').notNull().default(true),
    /** 0, 1 (identity checked) or 2 (address checked): what staff approved (decision 072). */
    verificationLevel: integer('verification_level').notNull().default(0),
    /** 'active', 'suspended' or 'closed' (decision 072). */
    standing: varchar('standing', { length: 16 }).notNull().default('active'),
    /** Why staff (or a rule) suspended or closed the account; null while active. */
    standingReason: varchar('standing_reason', { length: 500 }),
    standingNote: varchar('standing_note', { length: 2000 }),
    standingChangedAt: timestamp('standing_changed_at', { withTimezone: true }),
    /**
     * Whether digest emails (summaries of activity) are sent; like status updates, optional
     * (issue 22): each carries a one-click unsubscribe link (RFC 8058).
     */
    emailDigests: boolean('email_digests').notNull().default(true),
    /**
     * Deletion (issue 22, decision 083): when the customer asked for it to happen once nothing is
     * open, and when the account was erased (its name and email gone, its money records kept).
     */
    deletionRequestedAt: timestamp('deletion_requested_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
  ],
);

export const admins = pgTable(
  'admins',
  {
    id: id(),
    email: varchar('email', { length: 254 }).notNull().unique(),
    password: text('password').notNull(),
    firstName: varchar('first_name', { length: 100 }),
    lastName: varchar('last_name', { length: 100 }),
    /** owner | reviewer | support | finance (src/shared/staff-roles.ts, decision 076). */
    role: varchar('role', { length: 16 }).notNull().default('owner'),
    /** False once deactivated, and while an invitation waits to be accepted (decision 077). */
    active: boolean('active').notNull().default(true),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('admins_email_lower_idx').on(sql`lower(${t.email})`)],
);

export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 32 }).notNull(),
    accountName: varchar('account_name', { length: 200 }).notNull(),
    identifier: varchar('identifier', { length: 200 }),
    accountNumber: varchar('account_number', { length: 64 }),
    bankName: varchar('bank_name', { length: 200 }),
    routingNumber: varchar('routing_number', { length: 64 }),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    /**
     * When the payee details (where the money goes) were set: payouts to the method wait
     * PAYOUT_HOLD_NEW_METHOD_HOURS from then (decision 072).
     */
    payeeChangedAt: timestamp('payee_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** Soft delete: hidden from the user, kept for the transactions that name it. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('payment_methods_user_idx').on(t.userId),
    // One default per user among the methods they can still see.
    uniqueIndex('payment_methods_one_default_idx')
      .on(t.userId)
      .where(sql`${t.isDefault} and ${t.deletedAt} is null`),
  ],
);

export const transactions = pgTable(
  'transactions',
  {
    id: id(),
    /** No cascade: money records outlive a deleted account. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    cardType: varchar('card_type', { length: 120 }).notNull(),
    cardValue: money('card_value').notNull(),
    cardCondition: varchar('card_condition', { length: 32 }).notNull(),
    cardFormat: varchar('card_format', { length: 32 }).notNull(),
    imageUrls: text('image_urls').array().notNull(),
    notes: text('notes'),
    /**
     * An e-gift card's code or PIN (issue 24, decision 082): sealed with the data key (purpose
     * `card.code`), never in clear. `card_code_last4` is what lists and the customer see, and
     * `card_code_hash` a keyed hash of the normalised code that finds the same code on another card.
     */
    cardCode: text('card_code'),
    cardCodeLast4: varchar('card_code_last4', { length: 4 }),
    /** A partner's own id for a card sent through the API (issue 42), echoed back; null else. */
    partnerReference: varchar('partner_reference', { length: 200 }),
    cardCodeHash: varchar('card_code_hash', { length: 64 }),
    status: varchar('status', { length: 32 }).notNull().default('pending'),
    paymentMethodId: uuid('payment_method_id').references(() => paymentMethods.id),
    paymentStatus: varchar('payment_status', { length: 32 }).notNull().default('pending'),
    paymentAmount: money('payment_amount'),
    adminNotes: text('admin_notes'),
    validationStatus: varchar('validation_status', { length: 32 }).notNull().default('pending'),
    /** Why staff rejected the card (one of REJECTION_REASONS), and the text when it is 'other'. */
    rejectionReason: varchar('rejection_reason', { length: 32 }),
    rejectionNote: varchar('rejection_note', { length: 500 }),
    /** The brand rate at submission, honoured even after rates change (PRODUCT.md). */
    payoutRate: numeric('payout_rate', { precision: 5, scale: 4 }).notNull(),
    expectedPayout: money('expected_payout').notNull(),
    /** When payment was first marked sent or confirmed; null while not paid (decision 060). */
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The transfer id staff give when they pay (a PayPal or bank reference), for the receipt. */
    payoutReference: varchar('payout_reference', { length: 100 }),
    /**
     * The customer's answer to the scam question at submission (decision 073): 'no', or null
     * when an older client sent none.
     */
    scamCheck: varchar('scam_check', { length: 8 }),
    /** When staff first decided anything about the card (review times, decision 073). */
    firstDecisionAt: timestamp('first_decision_at', { withTimezone: true }),
    /**
     * Who is reviewing the card (issue 21, decision 078): a staff member's id and name, until
     * `claimed_until` (15 minutes after their last activity). Null when nobody holds it.
     */
    claimedById: uuid('claimed_by_id'),
    claimedByName: varchar('claimed_by_name', { length: 200 }),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** When the card was last rejected: an appeal is open for 14 days from it. */
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    /**
     * The card's revised offer, the latest one (decision 073): the balance staff verified, the
     * payout at the card's own rate, why, and the customer's answer (OFFER_STATUSES).
     */
    offerVerifiedValue: money('offer_verified_value'),
    offerAmount: money('offer_amount'),
    offerNote: varchar('offer_note', { length: 500 }),
    offerStatus: varchar('offer_status', { length: 16 }),
    offerCreatedAt: timestamp('offer_created_at', { withTimezone: true }),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    offerDecidedAt: timestamp('offer_decided_at', { withTimezone: true }),
    /** The customer's appeal of a rejection, once per card (APPEAL_STATUSES), and its decision. */
    appealStatus: varchar('appeal_status', { length: 16 }),
    appealMessage: text('appeal_message'),
    appealImageUrls: text('appeal_image_urls').array(),
    appealCreatedAt: timestamp('appeal_created_at', { withTimezone: true }),
    appealDecidedAt: timestamp('appeal_decided_at', { withTimezone: true }),
    appealNote: varchar('appeal_note', { length: 2000 }),
    /**
     * The rate tier the card was quoted at (issue 41, decision 130): its format, band and rate,
     * or null when the brand rate applied.
     */
    rateTier: jsonb('rate_tier').$type<RateTier>(),
    /** 'auto' when the instant-decision rules approved the card (decision 131); else null. */
    decidedBy: varchar('decided_by', { length: 16 }),
    /**
     * The instant-decision rules at submission (decision 131): `{ rules }` that held when the card
     * was approved at once, or `{ refusedBecause }` when it went to the queue.
     */
    instantDecision: jsonb('instant_decision').$type<
      { rules: string[] } | { refusedBecause: string[] }
    >(),
    /** A sampled instant decision's after-review: 'pending', 'confirmed' or 'clawback'. */
    sampleStatus: varchar('sample_status', { length: 16 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('transactions_user_created_idx').on(t.userId, t.createdAt),
    // The seller's instant approvals in the last 24 hours (the daily total, decision 131).
    index('transactions_user_auto_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.decidedBy} = 'auto'`),
    // The Sampled review list.
    index('transactions_sample_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.sampleStatus} = 'pending'`),
    // Offers waiting for an answer, by when they lapse (the expiry job).
    index('transactions_offer_expires_idx')
      .on(t.offerExpiresAt)
      .where(sql`${t.offerStatus} = 'pending'`),
    // The queue filtered to appeals.
    index('transactions_appeal_created_idx').on(t.appealStatus, t.createdAt, t.id),
    // Review times: the decisions of the last days.
    index('transactions_first_decision_idx').on(t.firstDecisionAt),
    // Keyset paging of the staff queue: newest first, ties broken by id.
    index('transactions_created_idx').on(t.createdAt, t.id),
    index('transactions_status_created_idx').on(t.status, t.createdAt, t.id),
    // The queue filtered to flagged cards.
    index('transactions_validation_created_idx').on(t.validationStatus, t.createdAt, t.id),
    // Analytics (issue 21): the amounts paid per day.
    index('transactions_paid_at_idx').on(t.paidAt),
    // The duplicate_code check: the same code on another card.
    index('transactions_card_code_hash_idx')
      .on(t.cardCodeHash)
      .where(sql`${t.cardCodeHash} is not null`),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    senderType: varchar('sender_type', { length: 16 }).notNull(),
    /** The staff member's name on their replies, kept as it was when sent. */
    senderName: varchar('sender_name', { length: 200 }),
    message: text('message').notNull(),
    attachmentUrl: text('attachment_url'),
    attachmentType: varchar('attachment_type', { length: 16 }),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_user_created_idx').on(t.userId, t.createdAt),
    index('chat_messages_created_idx').on(t.createdAt),
  ],
);

/**
 * One row per customer who has a conversation: its last message and counts, kept by triggers on
 * chat_messages (migration 0009), so the staff list pages through customers, not messages, and
 * one customer's flood cannot push the others off it.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageId: uuid('last_message_id').notNull(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    lastSenderType: varchar('last_sender_type', { length: 16 }).notNull(),
    /** The start of the last message, for the list. */
    lastMessage: text('last_message').notNull(),
    lastAttachmentType: varchar('last_attachment_type', { length: 16 }),
    messageCount: integer('message_count').notNull(),
    customerMessageCount: integer('customer_message_count').notNull(),
    /** Customer messages staff have not read yet (opening the thread reads them). */
    unreadCount: integer('unread_count').notNull().default(0),
    /** The last message is the customer's: staff owe an answer (these sort first). */
    needsReply: boolean('needs_reply').generatedAlwaysAs(sql`last_sender_type = 'user'`),
  },
  (t) => [
    index('chat_conversations_last_idx').on(t.lastMessageAt, t.userId),
    index('chat_conversations_needs_reply_idx').on(t.needsReply, t.lastMessageAt, t.userId),
  ],
);

export const feedback = pgTable(
  'feedback',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    transactionId: uuid('transaction_id').references(() => transactions.id, {
      onDelete: 'set null',
    }),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    type: varchar('type', { length: 32 }).notNull(),
    createdAt: createdAt(),
  },
  // A card is rated once.
  (t) => [uniqueIndex('feedback_transaction_idx').on(t.transactionId)],
);

export const validationLogs = pgTable(
  'validation_logs',
  {
    id: id(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    validationType: varchar('validation_type', { length: 64 }).notNull(),
    status: varchar('status', { length: 32 }).notNull(),
    details: text('details'),
    /** The other cards a duplicate or similar image was found on. */
    relatedTransactionIds: uuid('related_transaction_ids').array().notNull().default(sql`'{}'`),
    createdAt: createdAt(),
  },
  (t) => [index('validation_logs_transaction_idx').on(t.transactionId)],
);

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: id(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: varchar('email', { length: 254 }).notNull(),
    subject: varchar('subject', { length: 200 }).notNull(),
    message: text('message').notNull(),
    status: varchar('status', { length: 32 }).notNull().default('open'),
    attachmentUrl: text('attachment_url'),
    /** Who wrote last in the ticket's thread: 'user' (staff owe an answer) or 'admin'. */
    lastReplyBy: varchar('last_reply_by', { length: 16 }).notNull().default('user'),
    replyCount: integer('reply_count').notNull().default(0),
    /** When the customer's unanswered message was written: the queue's oldest-waiting order. */
    waitingSince: timestamp('waiting_since', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('support_tickets_user_idx').on(t.userId, t.createdAt),
    index('support_tickets_created_idx').on(t.createdAt, t.id),
    index('support_tickets_status_created_idx').on(t.status, t.createdAt, t.id),
    // Staff's queue: tickets awaiting a reply first, the longest-waiting first.
    index('support_tickets_awaiting_idx').on(t.lastReplyBy, t.waitingSince, t.id),
  ],
);

/**
 * The spec's sessions table (sid, sess, expire). `sid` holds the SHA-256 of the cookie's token,
 * never the token itself; the columns after `expire` let every session of an account be listed
 * and ended, and expiry be both idle and absolute (docs/decisions/003).
 */
export const sessions = pgTable(
  'sessions',
  {
    sid: varchar('sid', { length: 128 }).primaryKey(),
    sess: json('sess').notNull(),
    expire: timestamp('expire', { precision: 6, withTimezone: true }).notNull(),
    /** 'user' or 'admin'; null while a staff sign-in waits for its second factor. */
    accountKind: varchar('account_kind', { length: 16 }),
    accountId: uuid('account_id'),
    /** What the account's own session list calls it (the sid stays private to the server). */
    publicId: uuid('public_id').notNull().defaultRandom().unique(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_expire_idx').on(t.expire), index('sessions_account_idx').on(t.accountId)],
);

/**
 * Every uploaded file: who uploaded it, what its bytes are, and (for card images) the one
 * transaction that uses it. Files are served only through this table's rules.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: id(),
    /** The storage key, e.g. cards/<uuid>.jpg; served at /objects/<key>. */
    key: varchar('key', { length: 200 }).notNull().unique(),
    kind: varchar('kind', { length: 16 }).notNull(),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    ownerAdminId: uuid('owner_admin_id').references(() => admins.id, { onDelete: 'set null' }),
    contentType: varchar('content_type', { length: 100 }).notNull(),
    size: integer('size').notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    /** A 64-bit difference hash of the decoded image (card images only; null when undecodable). */
    perceptualHash: bigint('perceptual_hash', { mode: 'bigint' }),
    /**
     * The perceptual hash is still being made (decision 086): a card photo's upload is answered
     * once stored, and a submission of the card waits for its photos' hashes.
     */
    hashPending: boolean('hash_pending').notNull().default(false),
    transactionId: uuid('transaction_id').references(() => transactions.id),
    /** For chat files: the customer whose conversation the file was sent in. */
    conversationUserId: uuid('conversation_user_id').references(() => users.id, {
      onDelete: 'cascade',
    }),
    /**
     * When the file was deleted from storage while its row stays (the card and the chat still
     * name it), and why: 'retention' (issue 22: RETAIN_CARD_IMAGES_DAYS, RETAIN_CHAT_FILES_DAYS).
     */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removedReason: varchar('removed_reason', { length: 32 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('uploads_owner_user_idx').on(t.ownerUserId),
    index('uploads_sha256_idx').on(t.sha256),
    index('uploads_transaction_idx').on(t.transactionId),
  ],
);

/**
 * What staff did: who, when, to what, and each field before and after. Written in the same
 * database transaction as the change; a trigger refuses any UPDATE or DELETE of its rows.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    /** 'transaction', 'chat', 'support_ticket', 'user', 'payouts' (an export). */
    entityType: varchar('entity_type', { length: 32 }).notNull(),
    /** The changed row; null for actions on many rows (clearing all chats). */
    entityId: uuid('entity_id'),
    actorKind: varchar('actor_kind', { length: 16 }).notNull(),
    actorId: uuid('actor_id').notNull(),
    actorEmail: varchar('actor_email', { length: 254 }).notNull(),
    action: varchar('action', { length: 32 }).notNull(),
    changes: jsonb('changes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_entity_idx').on(t.entityType, t.entityId, t.createdAt)],
);

/**
 * Counters of fixed windows for rate limits (sign-in failures, sign-ups, chat, tickets, uploads),
 * kept in the database so that a restart forgives nothing and every instance counts together.
 * `key` is the SHA-256 of what is counted (an address, an email), never the thing itself.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: varchar('key', { length: 64 }).primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_at_idx').on(t.resetAt)],
);

/** When each periodic job last ran, across every instance (src/server/jobs.ts). */
export const jobRuns = pgTable('job_runs', {
  name: varchar('name', { length: 64 }).primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }).notNull(),
});

/**
 * Single-use links sent by email: password resets and address verification. Only the SHA-256 of
 * the token is kept; the token itself is in the link alone.
 */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: id(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    /** 'password_reset', 'email_verification' or 'signin_link' (account/tokens.ts). */
    purpose: varchar('purpose', { length: 32 }).notNull(),
    /** 'user' or 'admin'. */
    accountKind: varchar('account_kind', { length: 16 }).notNull(),
    accountId: uuid('account_id').notNull(),
    /** The address the link was sent to: a verification counts only for that address. */
    email: varchar('email', { length: 254 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('auth_tokens_account_idx').on(t.accountKind, t.accountId, t.purpose),
    index('auth_tokens_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Mail waiting to go, and what went (src/server/mail): a request that causes a message only adds
 * a row; a worker delivers it and retries failures later. Bodies are emptied once sent (they can
 * hold a link's token).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    toAddress: varchar('to_address', { length: 254 }).notNull(),
    template: varchar('template', { length: 64 }).notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** 'pending', 'sent' or 'failed' (given up after the last retry). */
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When it may be tried next; a worker claiming it pushes this on, so a crash retries it. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** Extra headers of the message: List-Unsubscribe and List-Unsubscribe-Post on optional ones. */
    headers: jsonb('headers').$type<Record<string, string>>(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt)],
);

/** What staff did that a customer should know: the bell's list, and the emails. */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'transaction', 'chat' or 'ticket'. */
    kind: varchar('kind', { length: 32 }).notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    body: text('body').notNull(),
    /** The page it is about, a path of the app such as /history. */
    link: varchar('link', { length: 200 }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** When it went out in an email (or was passed over because emails are off). */
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * One row per customer with notifications not yet emailed: when their email is due. The first
 * notification sets it a minute ahead, later ones join it, so changes close together make one email.
 */
export const notificationEmails = pgTable(
  'notification_emails',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('notification_emails_due_idx').on(t.dueAt)],
);

/**
 * The second factor (TOTP, RFC 6238) of an account with staff rights: a staff account, or a
 * customer row flagged is_admin (docs/decisions/037). The secret is set at the first sign-in and
 * counts once `enabledAt` is set by the first valid code.
 */
export const twoFactor = pgTable(
  'two_factor',
  {
    /** 'admin' or 'user'. */
    accountKind: varchar('account_kind', { length: 16 }).notNull(),
    accountId: uuid('account_id').notNull(),
    /**
     * The Base32 secret authenticator apps take, sealed with the data key (common/encryption.ts,
     * decision 074): never readable from a copy of the database alone.
     */
    secret: text('secret').notNull(),
    enabledAt: timestamp('enabled_at', { withTimezone: true }),
    /** The time step of the last code accepted: a code is good once, and never an older one. */
    lastStep: integer('last_step'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountKind, t.accountId] })],
);

/** One-time recovery codes for when the authenticator is lost, by SHA-256; each is good once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    accountKind: varchar('account_kind', { length: 16 }).notNull(),
    accountId: uuid('account_id').notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_account_idx').on(t.accountKind, t.accountId)],
);

/**
 * The rate and minimum of each brand, managed by staff (the spec's table is the seed, migration
 * 0012). A retired brand is no longer offered; cards keep the rate stored on them.
 */
export const brandRates = pgTable(
  'brand_rates',
  {
    id: id(),
    brand: varchar('brand', { length: 120 }).notNull(),
    rate: numeric('rate', { precision: 5, scale: 4 }).notNull(),
    minimum: money('minimum').notNull(),
    /** The seed's order, for brands of the same rate (new brands go last among them). */
    position: integer('position').notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('brand_rates_brand_lower_idx').on(sql`lower(${t.brand})`)],
);

/**
 * A brand's rate tiers (issue 41, decision 130): a format (`physical`, `egift` or `any`) and a
 * band of card values (`min_value` to `max_value` inclusive, open above when null). The most
 * specific tier that matches a card sets its rate; without one, the brand's rate applies.
 */
export const brandRateTiers = pgTable(
  'brand_rate_tiers',
  {
    id: id(),
    brandId: uuid('brand_id')
      .notNull()
      .references(() => brandRates.id, { onDelete: 'cascade' }),
    format: varchar('format', { length: 16 }).notNull(),
    minValue: money('min_value').notNull(),
    maxValue: money('max_value'),
    rate: numeric('rate', { precision: 5, scale: 4 }).notNull(),
  },
  (t) => [index('brand_rate_tiers_brand_idx').on(t.brandId)],
);

/**
 * The owner's instant-decision policy (issue 41, decision 131): one row (id 1). Money in
 * numeric(10,2), the sample rate a fraction with 4 decimals.
 */
export const instantDecisionPolicy = pgTable(
  'instant_decision_policy',
  {
    id: integer('id').primaryKey(),
    enabled: boolean('enabled').notNull().default(false),
    minLevel: integer('min_level').notNull().default(2),
    minCompletedCards: integer('min_completed_cards').notNull().default(10),
    maxCardValue: money('max_card_value').notNull().default('200.00'),
    maxDailyTotal: money('max_daily_total').notNull().default('500.00'),
    brands: text('brands').array().notNull().default(sql`'{}'::text[]`),
    sampleRate: numeric('sample_rate', { precision: 5, scale: 4 }).notNull().default('0.1'),
    updatedAt: updatedAt(),
  },
  (t) => [check('instant_decision_policy_one_row', sql`${t.id} = 1`)],
);

/**
 * A seller's rate alert (issue 41, decision 132): tell me when the brand's rate (for a format,
 * or any) is at least `min_rate`. `above` is whether the rate was at or over it after the last
 * change, so an alert fires once per upward crossing.
 */
export const rateAlerts = pgTable(
  'rate_alerts',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    brand: varchar('brand', { length: 120 }).notNull(),
    format: varchar('format', { length: 16 }),
    minRate: numeric('min_rate', { precision: 5, scale: 4 }).notNull(),
    above: boolean('above').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('rate_alerts_user_idx').on(t.userId, t.createdAt),
    index('rate_alerts_brand_idx').on(sql`lower(${t.brand})`),
  ],
);

/** A ticket's thread: the customer's and staff's replies after the first message. */
export const ticketReplies = pgTable(
  'ticket_replies',
  {
    id: id(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    /** 'user' or 'admin'. */
    authorKind: varchar('author_kind', { length: 16 }).notNull(),
    authorId: uuid('author_id'),
    /** The staff member's name as it was when they answered; null for the customer. */
    authorName: varchar('author_name', { length: 200 }),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('ticket_replies_ticket_idx').on(t.ticketId, t.createdAt)],
);

/**
 * A customer's request to be verified (decision 072): level 1 (identity) or 2 (address), its
 * details, its images (objectPaths of `verification` uploads) and staff's decision. The images are
 * deleted some days after the decision (`documentsDeletedAt`); the row and decision stay.
 */
export const verificationSubmissions = pgTable(
  'verification_submissions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    /** 'pending', 'approved' or 'rejected'. */
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    legalFirstName: varchar('legal_first_name', { length: 100 }),
    legalLastName: varchar('legal_last_name', { length: 100 }),
    dateOfBirth: varchar('date_of_birth', { length: 10 }),
    country: varchar('country', { length: 2 }).notNull(),
    /** 'passport', 'driving_licence' or 'national_id' (level 1). */
    documentType: varchar('document_type', { length: 32 }),
    addressLine1: varchar('address_line1', { length: 200 }),
    addressLine2: varchar('address_line2', { length: 200 }),
    city: varchar('city', { length: 100 }),
    /** State, province or region of a level-2 address (issue 43 item 21); null before 0030. */
    region: varchar('region', { length: 100 }),
    postalCode: varchar('postal_code', { length: 20 }),
    documentImages: text('document_images').array().notNull().default(sql`'{}'`),
    selfieImage: text('selfie_image'),
    proofImages: text('proof_images').array().notNull().default(sql`'{}'`),
    /** One of VERIFICATION_REJECTION_REASONS when rejected. */
    decisionReason: varchar('decision_reason', { length: 32 }),
    decisionNote: varchar('decision_note', { length: 500 }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: varchar('decided_by', { length: 254 }),
    documentsDeletedAt: timestamp('documents_deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('verification_submissions_status_created_idx').on(t.status, t.createdAt, t.id),
    index('verification_submissions_user_idx').on(t.userId, t.createdAt),
    // One pending submission per customer: a second one, even sent at the same moment, is refused.
    uniqueIndex('verification_submissions_one_pending_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** How much card value a customer may submit, by verification level (decision 072). */
export const verificationLimits = pgTable('verification_limits', {
  level: integer('level').primaryKey(),
  perCard: money('per_card').notNull(),
  perDay: money('per_day').notNull(),
  per30Days: money('per_30_days').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Submissions the scam question stopped (decision 073): the customer said someone they do not
 * know asked them to buy the card to pay them. Kept for staff, who may reach out.
 */
export const scamCheckRefusals = pgTable(
  'scam_check_refusals',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cardType: varchar('card_type', { length: 120 }).notNull(),
    cardValue: varchar('card_value', { length: 32 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('scam_check_refusals_user_idx').on(t.userId, t.createdAt)],
);

/**
 * The browsers and addresses each account signed in from (decision 072): a sign-in from a pair
 * not seen before on the account is emailed. Only a SHA-256 of user agent and address is the key;
 * the readable pair is kept for the account's own record.
 */
export const accountDevices = pgTable(
  'account_devices',
  {
    id: id(),
    accountKind: varchar('account_kind', { length: 16 }).notNull(),
    accountId: uuid('account_id').notNull(),
    deviceHash: varchar('device_hash', { length: 64 }).notNull(),
    userAgent: varchar('user_agent', { length: 300 }),
    ip: varchar('ip', { length: 64 }),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('account_devices_key_idx').on(t.accountKind, t.accountId, t.deviceHash)],
);

/**
 * A customer's export of their data (issue 22, decision 083): asked for from Profile, built by a
 * job into one ZIP object streamed to storage, downloadable by its owner for 24 hours.
 * `status`: 'pending' (asked), 'building', 'ready', 'failed' or 'expired' (the file deleted).
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    /** The ZIP's storage key (exports/<id>.zip), once it is built; null again once deleted. */
    objectKey: varchar('object_key', { length: 200 }),
    size: bigint('size', { mode: 'number' }),
    /** When a build started: a build that stalls (its instance stopped) is started again. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('data_exports_user_created_idx').on(t.userId, t.createdAt),
    index('data_exports_status_idx').on(t.status, t.createdAt),
  ],
);

/**
 * The Analytics tab's rollups (issue 21, decision 085): what the tab reads instead of every card
 * of its range. Statement triggers on `transactions` and `audit_log` (migration 0024) append what
 * each statement changed as rows of differences (`folded` false), in the transaction of the
 * change, so the sums are never behind the rows. A job folds each key's rows into one (`folded`
 * true). Readers always sum. Days are UTC.
 */
const folded = () => boolean('folded').notNull().default(false);

/**
 * Cards by the day they were submitted and their brand: how many, how many approved or rejected
 * now, and their value. Also the money paid by the day it was paid (in that day's brand row).
 */
export const analyticsCardsDaily = pgTable(
  'analytics_cards_daily',
  {
    day: date('day').notNull(),
    cardType: varchar('card_type', { length: 120 }).notNull(),
    submitted: integer('submitted').notNull().default(0),
    approved: integer('approved').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    value: numeric('value', { precision: 14, scale: 2 }).notNull().default('0'),
    paid: numeric('paid', { precision: 14, scale: 2 }).notNull().default('0'),
    folded: folded(),
  },
  (t) => [
    index('analytics_cards_daily_day_idx').on(t.day),
    index('analytics_cards_daily_unfolded_idx').on(t.day).where(sql`not ${t.folded}`),
  ],
);

/**
 * How long cards waited, as histograms for the medians: per kind ('decision': submitted to first
 * decision, by the day of that decision; 'payment': submitted to paid, by the day paid), the
 * number of cards per whole minute waited (per hour from 48 hours on).
 */
export const analyticsWaits = pgTable(
  'analytics_waits',
  {
    day: date('day').notNull(),
    kind: varchar('kind', { length: 16 }).notNull(),
    minutes: integer('minutes').notNull(),
    cards: integer('cards').notNull().default(0),
    folded: folded(),
  },
  (t) => [
    index('analytics_waits_day_idx').on(t.day),
    index('analytics_waits_unfolded_idx').on(t.day).where(sql`not ${t.folded}`),
  ],
);

/** Staff decisions (a card's status set to approved or rejected) per day and staff member. */
export const analyticsStaffDaily = pgTable(
  'analytics_staff_daily',
  {
    day: date('day').notNull(),
    staffId: uuid('staff_id').notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    decisions: integer('decisions').notNull().default(0),
    approved: integer('approved').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    folded: folded(),
  },
  (t) => [
    index('analytics_staff_daily_day_idx').on(t.day),
    index('analytics_staff_daily_unfolded_idx').on(t.day).where(sql`not ${t.folded}`),
  ],
);

/**
 * The books (issue 39, decision 093): double-entry, append-only. An entry is one movement of
 * money with its cause (the card, clawback or payout it belongs to), who caused it and a unique
 * idempotency key; its postings move integer cents (debit positive) into or out of accounts
 * (src/shared/ledger.ts), and sum to zero. Migration 0026 makes the database refuse an unbalanced
 * entry at commit (a deferred constraint trigger) and any UPDATE, DELETE or TRUNCATE of either.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    /** The order entries were posted in: statements and running balances follow it. */
    seq: bigserial('seq', { mode: 'number' }).notNull().unique(),
    /** When the movement happened, by the app's clock. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    kind: varchar('kind', { length: 32 }).notNull(),
    transactionId: uuid('transaction_id').references(() => transactions.id),
    clawbackId: uuid('clawback_id'),
    /** The payout (disbursement) the entry moves, on a payout's transitions (issue 40). */
    disbursementId: uuid('disbursement_id'),
    /** The seller the entry concerns (their statement lists it). */
    userId: uuid('user_id').references(() => users.id),
    actorKind: varchar('actor_kind', { length: 16 }).notNull(),
    actorId: uuid('actor_id').notNull(),
    actorEmail: varchar('actor_email', { length: 254 }).notNull(),
    memo: varchar('memo', { length: 500 }).notNull(),
    /** One per event: a retry, a double click or a second instance posts it once. */
    idempotencyKey: varchar('idempotency_key', { length: 200 }).notNull().unique(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_transaction_idx').on(t.transactionId),
    index('ledger_entries_user_seq_idx').on(t.userId, t.seq),
    index('ledger_entries_clawback_idx').on(t.clawbackId),
    index('ledger_entries_disbursement_idx').on(t.disbursementId),
    index('ledger_entries_at_idx').on(t.at),
  ],
);

export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => ledgerEntries.id),
    account: varchar('account', { length: 64 }).notNull(),
    /** The seller's sub-account, on the seller accounts only. */
    userId: uuid('user_id').references(() => users.id),
    /** Cents, debit positive; never 0. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The entry's kind, kept beside the amount: a seller's figures are one index scan. */
    kind: varchar('kind', { length: 32 }).notNull(),
  },
  (t) => [
    check('ledger_postings_amount_not_zero', sql`${t.amount} <> 0`),
    index('ledger_postings_entry_idx').on(t.entryId),
    index('ledger_postings_user_idx')
      .on(t.userId, t.account, t.kind, t.amount)
      .where(sql`${t.userId} is not null`),
  ],
);

/**
 * Debits and credits per account and day (UTC), appended by a statement trigger on
 * `ledger_postings` in the transaction that posts, and folded like the analytics rollups (decision
 * 085): the trial balance and money out per day read days, not postings.
 */
export const ledgerAccountDays = pgTable(
  'ledger_account_days',
  {
    day: date('day').notNull(),
    account: varchar('account', { length: 64 }).notNull(),
    debits: bigint('debits', { mode: 'number' }).notNull().default(0),
    credits: bigint('credits', { mode: 'number' }).notNull().default(0),
    folded: folded(),
  },
  (t) => [
    index('ledger_account_days_day_idx').on(t.day),
    index('ledger_account_days_unfolded_idx').on(t.day).where(sql`not ${t.folded}`),
  ],
);

/**
 * Money taken back from a seller after payment (issue 39): a card found redeemed, a balance that
 * differs, a chargeback. What is still owed back is read from the books; `status` says whether
 * any is (open), or it was netted against later payouts (settled) or written off.
 */
export const clawbacks = pgTable(
  'clawbacks',
  {
    id: id(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    amount: money('amount').notNull(),
    reason: varchar('reason', { length: 32 }).notNull(),
    note: varchar('note', { length: 2000 }),
    status: varchar('status', { length: 16 }).notNull().default('open'),
    createdById: uuid('created_by_id').notNull(),
    writeOffNote: varchar('write_off_note', { length: 2000 }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('clawbacks_transaction_idx').on(t.transactionId),
    index('clawbacks_user_open_idx').on(t.userId, t.createdAt).where(sql`${t.status} = 'open'`),
  ],
);

/** A statement file finance uploaded for one payout method (issue 39, reconciliation). */
export const reconciliationStatements = pgTable('reconciliation_statements', {
  id: id(),
  paymentType: varchar('payment_type', { length: 32 }).notNull(),
  fileName: varchar('file_name', { length: 255 }).notNull(),
  objectPath: text('object_path').notNull(),
  sha256: varchar('sha256', { length: 64 }).notNull(),
  lines: integer('lines').notNull(),
  matched: integer('matched').notNull(),
  firstDate: date('first_date'),
  lastDate: date('last_date'),
  uploadedById: uuid('uploaded_by_id').notNull(),
  createdAt: createdAt(),
});

/** A statement's lines, as read from the file. */
export const reconciliationLines = pgTable(
  'reconciliation_lines',
  {
    id: id(),
    statementId: uuid('statement_id')
      .notNull()
      .references(() => reconciliationStatements.id),
    lineNo: integer('line_no').notNull(),
    day: date('day').notNull(),
    amount: money('amount').notNull(),
    reference: varchar('reference', { length: 200 }).notNull(),
    payee: varchar('payee', { length: 200 }),
  },
  (t) => [index('reconciliation_lines_statement_idx').on(t.statementId, t.lineNo)],
);

/**
 * The cards a line paid (one, or a batch sent under one reference). A card is matched once at
 * most (its primary key), so the same file imported twice matches nothing twice.
 */
export const reconciliationMatches = pgTable(
  'reconciliation_matches',
  {
    transactionId: uuid('transaction_id')
      .primaryKey()
      .references(() => transactions.id),
    lineId: uuid('line_id')
      .notNull()
      .references(() => reconciliationLines.id),
  },
  (t) => [index('reconciliation_matches_line_idx').on(t.lineId)],
);

/**
 * A seller's API keys (issue 42, decision 125): only the SHA-256 of the key is kept, with its
 * last 4 characters for the list. Revoked keys stay (their row says when) for the audit trail.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    keyHash: varchar('key_hash', { length: 64 }).notNull().unique(),
    last4: varchar('last4', { length: 4 }).notNull(),
    scopes: text('scopes').array().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** The client address of the last use. */
    lastUsedIp: varchar('last_used_ip', { length: 64 }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId, t.createdAt)],
);

/**
 * Idempotency-Key answers (issue 42, decision 126), per account, for 24 hours: a row without a
 * status is a request still running; with one, the answer replayed to the same key and body.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    holder: uuid('holder').notNull(),
    key: varchar('key', { length: 255 }).notNull(),
    /** SHA-256 of the method, the route and the body. */
    requestHash: varchar('request_hash', { length: 64 }).notNull(),
    statusCode: integer('status_code'),
    body: text('body'),
    contentType: varchar('content_type', { length: 100 }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.holder, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/**
 * A seller's webhook endpoints (issue 42, decision 127): the signing secret sealed at rest, the
 * one it replaced valid until `previousSecretUntil`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: varchar('url', { length: 2000 }).notNull(),
    events: text('events').array().notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    createdAt: createdAt(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId)],
);

/**
 * The webhook outbox and its log (decision 127): written in the transaction of the event, sent
 * after commit, retried on the Standard Webhooks schedule under the same id.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventType: varchar('event_type', { length: 64 }).notNull(),
    payload: jsonb('payload').notNull(),
    /** 'pending', 'delivered' or 'failed' (given up). */
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: varchar('last_error', { length: 500 }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);

/**
 * A payout rail's settings (issue 40, decision 120): whether approvals queue their payout on it
 * at once. A rail without a row has automatic payout off.
 */
export const payoutRails = pgTable('payout_rails', {
  rail: varchar('rail', { length: 32 }).primaryKey(),
  autoPayout: boolean('auto_payout').notNull().default(false),
  updatedAt: updatedAt(),
});

/**
 * A payout (the API's disbursement; issue 40, decision 120): one seller's cards paid through one
 * rail. queued -> submitted -> confirmed, or failed (retried: queued again) or cancelled while
 * queued. `amount` is cents sent (what the cards are owed less what the seller owes back), fixed
 * when submitted. `idempotencyKey` names the current attempt and is passed to the rail.
 */
export const disbursements = pgTable(
  'disbursements',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    rail: varchar('rail', { length: 32 }).notNull(),
    paymentType: varchar('payment_type', { length: 32 }),
    paymentMethodId: uuid('payment_method_id'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('queued'),
    idempotencyKey: varchar('idempotency_key', { length: 100 }).notNull().unique(),
    reference: varchar('reference', { length: 200 }),
    /** Where the seller can look the reference up (a hash on the chain's explorer), if anywhere. */
    referenceUrl: varchar('reference_url', { length: 400 }),
    attempts: integer('attempts').notNull().default(0),
    lastError: varchar('last_error', { length: 500 }),
    /** When a worker may next take it (a hold's end, a wait for funds or the RPC). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    achBatchId: uuid('ach_batch_id'),
    /** The EVM rail: the nonce, the signed transaction and its hash, stored before broadcast. */
    chainNonce: integer('chain_nonce'),
    chainTxHash: varchar('chain_tx_hash', { length: 66 }),
    chainRawTx: text('chain_raw_tx'),
    /**
     * When an instance last sent the signed transaction: a lease every instance claims before
     * sending, so that no two ever send the same bytes at once (decision 123).
     */
    chainSentAt: timestamp('chain_sent_at', { withTimezone: true }),
    createdById: uuid('created_by_id'),
    createdAt: createdAt(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'disbursements_status_known',
      sql`${t.status} IN ('queued', 'submitted', 'confirmed', 'failed', 'cancelled')`,
    ),
    check('disbursements_amount_not_negative', sql`${t.amount} >= 0`),
    index('disbursements_due_idx').on(t.dueAt).where(sql`${t.status} = 'queued'`),
    index('disbursements_status_created_idx').on(t.status, t.createdAt, t.id),
    index('disbursements_created_idx').on(t.createdAt, t.id),
    index('disbursements_user_idx').on(t.userId),
    index('disbursements_batch_idx').on(t.achBatchId),
  ],
);

/**
 * The cards a payout pays, each with what it was owed when queued. A card is in at most one open
 * payout (queued, submitted or confirmed): the partial unique index refuses a second.
 */
export const disbursementCards = pgTable(
  'disbursement_cards',
  {
    disbursementId: uuid('disbursement_id')
      .notNull()
      .references(() => disbursements.id),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id),
    owed: bigint('owed', { mode: 'number' }).notNull(),
    /** False once the payout failed for good or was cancelled: the card may be paid again. */
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.disbursementId, t.transactionId] }),
    index('disbursement_cards_transaction_idx').on(t.transactionId),
    uniqueIndex('disbursement_cards_one_open_idx').on(t.transactionId).where(sql`${t.active}`),
  ],
);

/** The ACH entries' trace numbers' sequence (7 digits after the origin's routing number). */
export const achTraceSeq = pgSequence('ach_trace_seq');

/** An ACH file built from queued bank payouts (issue 40): settled when the bank says so. */
export const achBatches = pgTable('ach_batches', {
  id: id(),
  entries: integer('entries').notNull(),
  total: bigint('total', { mode: 'number' }).notNull(),
  fileText: text('file_text').notNull(),
  createdById: uuid('created_by_id').notNull(),
  createdAt: createdAt(),
  settledAt: timestamp('settled_at', { withTimezone: true }),
});

/**
 * Notes staff leave each other about a customer (issue 43 item 15, decision 144): never shown to
 * the customer in the app, but part of their data export, and erased with their account.
 */
export const customerNotes = pgTable(
  'customer_notes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorId: uuid('author_id')
      .notNull()
      .references(() => admins.id),
    /** The staff member's name (or email) as it was when they wrote it. */
    authorName: varchar('author_name', { length: 254 }).notNull(),
    body: varchar('body', { length: 2000 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('customer_notes_user_idx').on(t.userId, t.createdAt, t.id),
    check('customer_notes_body_length', sql`char_length(${t.body}) between 1 and 2000`),
  ],
);

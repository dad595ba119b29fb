import { z } from 'zod';
import { adminListQuerySchema } from './admin';
import { TICKET_STATUSES } from './statuses';
import { CHAT_OBJECT_PATH } from './upload-types';

export const MAX_CHAT_MESSAGE = 5000;

/**
 * POST /api/chat/messages. The sender and, for customers, the conversation come from the
 * session: a senderType or userId in a customer's body is ignored. Staff name the customer.
 */
export const sendChatMessageSchema = z
  .object({
    message: z.string().max(MAX_CHAT_MESSAGE, 'Message is too long').default(''),
    attachmentUrl: z.string().max(200).nullish(),
    attachmentType: z.string().nullish(),
    userId: z.string().nullish(),
    senderType: z.string().nullish(),
  })
  .refine((m) => m.message.trim() !== '' || !!m.attachmentUrl, {
    message: 'Type a message or attach a file',
    path: ['message'],
  });

export const chatMessageSchema = z.object({
  id: z.string(),
  userId: z.string(),
  senderType: z.enum(['user', 'admin']),
  senderName: z.string().nullable(),
  message: z.string(),
  attachmentUrl: z.string().nullable(),
  attachmentType: z.enum(['image', 'other']).nullable(),
  isRead: z.boolean(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const adminChatMessageSchema = chatMessageSchema.extend({
  userEmail: z.string().nullable(),
  userFirstName: z.string().nullable(),
  userLastName: z.string().nullable(),
});
export type AdminChatMessage = z.infer<typeof adminChatMessageSchema>;

/** Full name, else the part of the email before the @, else User and the id's first 8 (spec 2). */
export function conversationName(m: {
  userId: string;
  userEmail: string | null;
  userFirstName: string | null;
  userLastName: string | null;
}): string {
  const full = [m.userFirstName, m.userLastName].filter(Boolean).join(' ');
  if (full) return full;
  if (m.userEmail) return m.userEmail.split('@')[0]!;
  return `User ${m.userId.slice(0, 8)}`;
}

const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `${message.split(' ')[0]} is too long`);

export const TICKET_ATTACHMENT_MESSAGE =
  'Attachment must be a file you uploaded or a link starting with https://';

/** POST /api/support-tickets (spec section 5). */
export const createTicketSchema = z.object({
  email: z
    .string({ error: 'Invalid email address' })
    .trim()
    .max(254, 'Invalid email address')
    .pipe(z.email('Invalid email address')),
  subject: required('Subject is required', 200),
  message: required('Message is required', 5000),
  attachmentUrl: z
    .string()
    .trim()
    .max(2000)
    .nullish()
    .transform((v) => v || null)
    // A file uploaded from the form (issue 24, item 11), or a link that starts with https://.
    .refine(
      (v) => v === null || CHAT_OBJECT_PATH.test(v) || /^https:\/\/\S+$/i.test(v),
      TICKET_ATTACHMENT_MESSAGE,
    ),
});
export type CreateTicketInput = z.input<typeof createTicketSchema>;

/** Who wrote in a ticket's thread: the customer ('user') or staff ('admin'). */
export const TICKET_AUTHORS = ['user', 'admin'] as const;
export type TicketAuthor = (typeof TICKET_AUTHORS)[number];

export const ticketSchema = z.object({
  id: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  status: z.string(),
  attachmentUrl: z.string().nullable(),
  /** Who wrote last: 'user' means staff owe an answer, 'admin' that support replied. */
  lastReplyBy: z.enum(TICKET_AUTHORS),
  /** Replies after the first message. */
  replyCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const adminTicketSchema = ticketSchema.extend({
  userId: z.string().nullable(),
  userFirstName: z.string().nullable(),
  userLastName: z.string().nullable(),
  /** When the customer's unanswered message was written: the queue shows the longest-waiting first. */
  waitingSince: z.string(),
});
export type AdminTicket = z.infer<typeof adminTicketSchema>;

/**
 * A ticket is waiting for staff while it is open or in progress and the customer wrote last
 * (a new ticket counts: nobody has answered its first message yet).
 */
export const awaitsStaff = (ticket: Pick<Ticket, 'status' | 'lastReplyBy'>) =>
  ticket.lastReplyBy === 'user' && (ticket.status === 'open' || ticket.status === 'in_progress');

/** A customer may not write in a closed ticket; a reply to a resolved one reopens it. */
export const TICKET_CLOSED_MESSAGE =
  'This ticket is closed. Please file a new ticket if you still need help.';

/** POST /api/support-tickets/:id/replies and POST /api/admin/support-tickets/:id/replies. */
export const ticketReplyInputSchema = z.object({
  message: required('Message is required', 5000),
});
export type TicketReplyInput = z.input<typeof ticketReplyInputSchema>;

export const ticketReplySchema = z.object({
  id: z.string(),
  authorKind: z.enum(TICKET_AUTHORS),
  /** The staff member's name as it was when they answered; null for the customer. */
  authorName: z.string().nullable(),
  message: z.string(),
  createdAt: z.string(),
});
export type TicketReply = z.infer<typeof ticketReplySchema>;

/** GET /api/support-tickets/:id: the ticket, its first message and the replies, oldest first. */
export const ticketThreadSchema = ticketSchema.extend({ replies: z.array(ticketReplySchema) });
export type TicketThread = z.infer<typeof ticketThreadSchema>;

/** GET /api/admin/support-tickets/:id: the same, with the customer, for staff. */
export const adminTicketThreadSchema = adminTicketSchema.extend({
  replies: z.array(ticketReplySchema),
});
export type AdminTicketThread = z.infer<typeof adminTicketThreadSchema>;

export const updateTicketSchema = z.object({
  status: z.enum(TICKET_STATUSES, {
    error: `Status must be one of: ${TICKET_STATUSES.join(', ')}`,
  }),
});

/**
 * GET /api/admin/conversations: one row per customer; those needing a reply first, then the
 * newest last message first.
 */
export const adminConversationSchema = z.object({
  userId: z.string(),
  userEmail: z.string().nullable(),
  userFirstName: z.string().nullable(),
  userLastName: z.string().nullable(),
  /** The start of the last message (200 characters). */
  lastMessage: z.string(),
  lastSenderType: z.enum(['user', 'admin']),
  lastAttachmentType: z.enum(['image', 'other']).nullable(),
  lastMessageAt: z.string(),
  messageCount: z.number(),
  customerMessageCount: z.number(),
  /** The customer's messages no staff member has read yet (opening the thread reads them). */
  unreadCount: z.number(),
  /** The last message is the customer's: staff owe an answer. These conversations come first. */
  needsReply: z.boolean(),
});
export type AdminConversation = z.infer<typeof adminConversationSchema>;

/** GET /api/admin/support-tickets: newest first, a page at a time, optionally one status. */
export const adminTicketsQuerySchema = adminListQuerySchema
  .pick({ cursor: true, limit: true })
  .extend({
    status: z
      .enum(['all', ...TICKET_STATUSES], {
        error: `Status must be one of: all, ${TICKET_STATUSES.join(', ')}`,
      })
      .optional(),
    /** `staff`: only the tickets waiting for a staff reply (decision 073). */
    awaiting: z.enum(['staff', 'all'], { error: 'awaiting must be one of: staff, all' }).optional(),
  });

/**
 * POST /api/admin/conversations/:userId/read: the customer's messages up to and including
 * `throughMessageId` (the newest one on the staff member's screen) are read; without it, all.
 * A message that arrived after the screen was drawn stays unread.
 */
export const markConversationReadSchema = z.object({
  throughMessageId: z.uuid({ error: 'Choose a message of this conversation' }).optional(),
});
export const markConversationReadResultSchema = z.object({
  /** How many messages this call marked read. */
  marked: z.number(),
  unreadCount: z.number(),
});

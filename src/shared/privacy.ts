import { z } from 'zod';

/** A data export's link works this long after it is ready, and one may be asked for this often. */
export const EXPORT_HOURS = 24;

export const EXPORT_STATUSES = ['pending', 'building', 'ready', 'failed', 'expired'] as const;

/** One of the account's exports (GET /api/account/exports). */
export const dataExportSchema = z.object({
  id: z.string(),
  status: z.enum(EXPORT_STATUSES),
  createdAt: z.string(),
  readyAt: z.string().nullable(),
  /** Until when the download works; null until it is ready. */
  expiresAt: z.string().nullable(),
  /** The ZIP's size in bytes, once built. */
  size: z.number().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

export const EXPORT_LIMIT_CODE = 'export_limit';
export const exportLimitMessage = `You can ask for one export every ${EXPORT_HOURS} hours. The last one is listed below.`;
export const EXPORT_EXPIRED = `This export's link has expired: it works for ${EXPORT_HOURS} hours. Ask for a new one in Profile.`;

/** DELETE /api/account: the password, and whether to wait for open cards to settle. */
export const deleteAccountSchema = z.object({
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
  /** When something is still open: delete the account by itself once everything settles. */
  whenSettled: z.boolean({ error: 'whenSettled must be true or false' }).optional(),
});

/** POST /api/admin/users/{id}/erase: staff erase a customer who asked by email. */
export const eraseAccountSchema = z
  .object({ whenSettled: z.boolean({ error: 'whenSettled must be true or false' }).optional() })
  .nullish();

export const OPEN_ITEM_REASONS = ['under_review', 'payout_owed', 'appeal_pending'] as const;
export type OpenItemReason = (typeof OPEN_ITEM_REASONS)[number];
export const OPEN_ITEM_LABELS: Record<OpenItemReason, string> = {
  under_review: 'Still under review',
  payout_owed: 'Approved, payment not sent yet',
  appeal_pending: 'Appeal waiting for a decision',
};

/** Something that keeps an account from being deleted now: a card and why. */
export const openItemSchema = z.object({
  transactionId: z.string(),
  cardType: z.string(),
  cardValue: z.string(),
  reason: z.enum(OPEN_ITEM_REASONS),
  label: z.string(),
});
export type OpenItem = z.infer<typeof openItemSchema>;

export const ACCOUNT_HAS_OPEN_ITEMS = 'account_has_open_items';
export const openItemsMessage = (count: number) =>
  `The account cannot be deleted yet: ${count === 1 ? 'one card is' : `${count} cards are`} still open. Ask for deletion once everything settles, and it will happen then.`;

/** What a deletion answers: done, or scheduled for when the open items settle. */
export const deletionResultSchema = z.union([
  z.object({ deleted: z.literal(true) }),
  z.object({
    deleted: z.literal(false),
    scheduled: z.literal(true),
    items: z.array(openItemSchema),
  }),
]);
export type DeletionResult = z.infer<typeof deletionResultSchema>;

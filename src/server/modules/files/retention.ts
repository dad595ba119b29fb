import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { CommandContext } from '../../common/command';
import { transactions, uploads } from '../../db/schema';

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 200;
/** The statuses a card ends in: its money is settled (paid), it was refused or withdrawn. */
const SETTLED = ['completed', 'rejected', 'withdrawn'];

/**
 * The daily retention run (issue 22, item 5; src/server/main.ts runs it once a day across
 * instances). Card photos go RETAIN_CARD_IMAGES_DAYS after their card settled (completed or
 * rejected; the later of the payment and the last change), chat attachments
 * RETAIN_CHAT_FILES_DAYS after they were sent. The file is deleted from storage and its row kept,
 * marked removed for 'retention', so the card and the chat still say a photo was there and staff
 * see "Photo removed (retention)". Rows, money and the audit log are kept. A file is deleted
 * before its row is marked: a run cut short deletes it again next time (a no-op) and marks it.
 */
export async function applyRetention(context: CommandContext) {
  const { db, config } = context;
  const now = context.now();
  const cardsBefore = new Date(now - config.retention.cardImagesDays * DAY_MS);
  const chatBefore = new Date(now - config.retention.chatFilesDays * DAY_MS);
  let cardImages = 0;
  let chatFiles = 0;
  for (;;) {
    const due = await db
      .select({ id: uploads.id, key: uploads.key })
      .from(uploads)
      .innerJoin(transactions, eq(transactions.id, uploads.transactionId))
      .where(
        and(
          eq(uploads.kind, 'card'),
          isNull(uploads.removedAt),
          inArray(transactions.status, SETTLED),
          lt(sql`greatest(${transactions.paidAt}, ${transactions.updatedAt})`, cardsBefore),
        ),
      )
      .limit(BATCH);
    if (due.length === 0) break;
    cardImages += await remove(context, due);
  }
  for (;;) {
    const due = await db
      .select({ id: uploads.id, key: uploads.key })
      .from(uploads)
      .where(
        and(eq(uploads.kind, 'chat'), isNull(uploads.removedAt), lt(uploads.createdAt, chatBefore)),
      )
      .limit(BATCH);
    if (due.length === 0) break;
    chatFiles += await remove(context, due);
  }
  return { cardImages, chatFiles };
}

async function remove(context: CommandContext, due: { id: string; key: string }[]) {
  for (const upload of due) await context.storage.delete(upload.key);
  const marked = await context.db
    .update(uploads)
    .set({ removedAt: new Date(context.now()), removedReason: 'retention' })
    .where(
      and(
        inArray(
          uploads.id,
          due.map((u) => u.id),
        ),
        isNull(uploads.removedAt),
      ),
    )
    .returning({ id: uploads.id });
  return marked.length;
}

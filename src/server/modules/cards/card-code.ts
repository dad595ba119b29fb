import { createHmac } from 'node:crypto';
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { cardCodeLast4, normaliseCardCode } from '../../../shared/card-rules';
import { can } from '../../../shared/staff-roles';
import type { Account } from '../../common/account';
import { auditCard } from '../../common/audit';
import type { CommandContext, Outcome } from '../../common/command';
import type { Db } from '../../db/client';
import { transactions } from '../../db/schema';
import { type DataKey, type Keyring, openText, sealedTextKeyId, sealText } from '../../encryption';

/**
 * An e-gift card's code at rest (issue 24, decision 082): sealed with the data key, shown in
 * lists by its last 4 characters, and found on other cards by a keyed hash of its normalised form.
 * The hash's key is derived from the data key, so a copy of the database alone cannot test
 * guessed codes against it; a rotation re-hashes every code with the new key (SEALED_DATA).
 */
const PURPOSE = 'card.code';

const hashKey = (key: DataKey) =>
  createHmac('sha256', key.key).update('cardbridge:card-code-hash').digest();

/** The keyed hash of a code under one data key: 64 hex characters. */
export const cardCodeHash = (key: DataKey, code: string) =>
  createHmac('sha256', hashKey(key)).update(normaliseCardCode(code)).digest('hex');

/**
 * The code's hash under every key of the ring: during a rotation, an older card's code may still
 * be hashed with the previous key, and the duplicate check must find it all the same.
 */
export const cardCodeHashes = (keyring: Keyring, code: string) =>
  [...keyring.byId.values()].map((key) => cardCodeHash(key, code));

/** The three columns a card's code is stored in. */
export function storedCardCode(keyring: Keyring, code: string | null, pin?: string | null) {
  if (!code) return { cardCode: null, cardCodeLast4: null, cardCodeHash: null };
  return {
    // A partner's PIN is sealed beside its code; the last 4 and the duplicate hash are the code's.
    cardCode: sealText(keyring, PURPOSE, pin ? `${code} PIN ${pin}` : code),
    cardCodeLast4: cardCodeLast4(code),
    cardCodeHash: cardCodeHash(keyring.current, code),
  };
}

const openCardCode = (keyring: Keyring, sealed: string) => openText(keyring, PURPOSE, sealed);

/**
 * The card's code in full, for a staff member whose role reviews cards (decision 082): each time
 * it is sent, an audit row on the card says who read it. Null when the card has no code or the
 * role does not review (support and finance see the last 4 characters, as lists do).
 */
export async function revealCardCode(
  context: CommandContext,
  actor: Account,
  id: string,
): Promise<Outcome<string | null>> {
  if (!can(actor.staffRole, 'cards.review')) return { value: null, changed: [] };
  return context.db.transaction(async (tx) => {
    const [card] = await tx
      .select({ cardCode: transactions.cardCode, last4: transactions.cardCodeLast4 })
      .from(transactions)
      .where(eq(transactions.id, id));
    if (!card?.cardCode) return { value: null, changed: [] };
    await auditCard(tx, actor, id, 'view_card_code', {
      cardCode: { from: null, to: card.last4 ? `••••${card.last4}` : '••••' },
    });
    return { value: openCardCode(context.config.encryption, card.cardCode), changed: [] };
  });
}

/**
 * keys:rotate's step for card codes: each code sealed under an older key is sealed again, and
 * re-hashed, under the current one, a batch at a time; interrupted, the next run goes on. The
 * code's columns are not the card's lifecycle: written here directly, not through changeCard. A code
 * under a key the ring does not hold stops the run with what to do.
 */
export async function resealCardCodes(db: Db, keyring: Keyring, batch = 200): Promise<number> {
  let done = 0;
  for (;;) {
    const rows = await db
      .select({ id: transactions.id, cardCode: transactions.cardCode })
      .from(transactions)
      .where(
        and(
          isNotNull(transactions.cardCode),
          ne(sql`split_part(${transactions.cardCode}, '.', 2)`, keyring.current.id),
        ),
      )
      .limit(batch);
    if (rows.length === 0) return done;
    for (const row of rows) {
      const keyId = sealedTextKeyId(row.cardCode!);
      if (keyId === null || !keyring.byId.has(keyId)) {
        throw new Error(
          `A card code is sealed under key ${keyId ?? '(none)'}, which is not configured: add it to DATA_ENCRYPTION_PREVIOUS_KEYS`,
        );
      }
      const code = openCardCode(keyring, row.cardCode!);
      const { cardCode, cardCodeHash } = storedCardCode(keyring, code);
      await db
        .update(transactions)
        .set({ cardCode, cardCodeHash })
        .where(and(eq(transactions.id, row.id), eq(transactions.cardCode, row.cardCode!)));
      done += 1;
    }
  }
}

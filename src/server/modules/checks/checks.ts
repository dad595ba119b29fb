import { and, asc, eq, gt, inArray, ne, sql } from 'drizzle-orm';
import { minimumAmount } from '../../../shared/card-rules';
import {
  CHECK_TYPES,
  type CheckStatus,
  type CheckType,
  HIGH_VALUE_CENTS,
  SIMILAR_IMAGE_BITS,
  VELOCITY_LIMIT,
} from '../../../shared/checks';
import { formatMoney, fromCents, toCents } from '../../../shared/money';
import type { BrandRate } from '../../../shared/rates';
import type { Db } from '../../db/client';
import { transactions, users, validationLogs } from '../../db/schema';

interface CheckResult {
  validationType: CheckType;
  status: CheckStatus;
  details: string;
  relatedTransactionIds: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const shortId = (id: string) => id.slice(0, 8);
const cards = (n: number) => `${n} other card${n === 1 ? '' : 's'}`;
const hoursAgo = (ms: number) => {
  const hours = Math.floor(ms / 3_600_000);
  return hours < 1 ? 'less than an hour ago' : `${hours} hour${hours === 1 ? '' : 's'} ago`;
};

/** Other cards (of anyone) carrying one of this card's files, byte for byte. */
async function sameBytes(tx: Db, transactionId: string) {
  const { rows } = await tx.execute<{ id: string }>(sql`
    select distinct other.transaction_id as id
      from uploads mine
      join uploads other on other.sha256 = mine.sha256 and other.kind = 'card'
                        and other.transaction_id is not null
                        and other.transaction_id <> mine.transaction_id
     where mine.transaction_id = ${transactionId}`);
  return rows.map((r) => r.id);
}

/**
 * Other customers' cards whose photo looks like one of this card's (difference hashes a few bits
 * apart) without being the same file: a re-photographed or re-encoded copy of a card sold before.
 */
async function lookAlike(tx: Db, transactionId: string, userId: string) {
  const { rows } = await tx.execute<{ id: string; bits: number }>(sql`
    select other.transaction_id as id,
           min(bit_count((other.perceptual_hash # mine.perceptual_hash)::bit(64)))::int as bits
      from uploads mine
      join uploads other on other.kind = 'card' and other.transaction_id is not null
                        and other.transaction_id <> mine.transaction_id
                        and other.owner_user_id <> ${userId}
                        and other.perceptual_hash is not null
                        and other.sha256 <> mine.sha256
     where mine.transaction_id = ${transactionId} and mine.perceptual_hash is not null
       and bit_count((other.perceptual_hash # mine.perceptual_hash)::bit(64)) <= ${SIMILAR_IMAGE_BITS}
     group by other.transaction_id
     order by bits, other.transaction_id
     limit 20`);
  const { rows: counted } = await tx.execute<{ all: number; hashed: number }>(sql`
    select count(*)::int as all, count(perceptual_hash)::int as hashed
      from uploads where transaction_id = ${transactionId}`);
  return { matches: rows, unhashed: counted[0]!.all - counted[0]!.hashed };
}

/**
 * The automated checks of a new card (decision 054), run inside its submission's database
 * transaction after its images are claimed, written to `validation_logs` there, and summed up in
 * the card's `validationStatus`: `flagged` when any check flags, else `passed` (an `info` result
 * flags nothing).
 */
export async function runSubmissionChecks(
  tx: Db,
  card: {
    id: string;
    userId: string;
    cardType: string;
    cardValue: string;
    /** The keyed hashes of the card's code under each data key; none when it has no code. */
    codeHashes: string[];
    terms: BrandRate;
    now: Date;
  },
): Promise<'passed' | 'flagged'> {
  const results: CheckResult[] = [];
  const add = (
    validationType: CheckType,
    found: boolean | 'info',
    details: string,
    relatedTransactionIds: string[] = [],
  ) =>
    results.push({
      validationType,
      status: found === 'info' ? 'info' : found ? 'flagged' : 'passed',
      details,
      relatedTransactionIds,
    });

  const duplicates = await sameBytes(tx, card.id);
  add(
    'duplicate_image',
    duplicates.length > 0,
    duplicates.length > 0
      ? `The same photo file is already on ${cards(duplicates.length)}: ${duplicates.map(shortId).join(', ')}.`
      : 'No other card has the same photo file.',
    duplicates,
  );

  // The same code on another card (of anyone): a code kept and sold twice (decision 082).
  const sameCode =
    card.codeHashes.length === 0
      ? []
      : (
          await tx
            .select({ id: transactions.id })
            .from(transactions)
            .where(
              and(
                inArray(transactions.cardCodeHash, card.codeHashes),
                ne(transactions.id, card.id),
              ),
            )
            .orderBy(asc(transactions.createdAt))
            .limit(20)
        ).map((r) => r.id);
  add(
    'duplicate_code',
    sameCode.length > 0,
    card.codeHashes.length === 0
      ? 'No card code was given.'
      : sameCode.length > 0
        ? `The same code was already submitted on ${cards(sameCode.length)}: ${sameCode.map(shortId).join(', ')}.`
        : 'No other card has this code.',
    sameCode,
  );

  const similar = await lookAlike(tx, card.id, card.userId);
  const couldNot =
    similar.unhashed > 0
      ? ` ${similar.unhashed} file${similar.unhashed === 1 ? ' (a PDF or an unreadable image) was' : 's (PDFs or unreadable images) were'} not compared.`
      : '';
  add(
    'similar_image',
    similar.matches.length > 0,
    similar.matches.length > 0
      ? `A photo looks like one on ${similar.matches.length === 1 ? 'another customer’s card' : `${similar.matches.length} other customers’ cards`}: ${similar.matches
          .map((m) => `${shortId(m.id)} (${m.bits} of 64 bits differ)`)
          .join(', ')}.${couldNot}`
      : `No other customer’s card has a photo like these.${couldNot}`,
    similar.matches.map((m) => m.id),
  );

  const since = new Date(card.now.getTime() - DAY_MS);
  const recent = await tx.$count(
    transactions,
    and(eq(transactions.userId, card.userId), gt(transactions.createdAt, since)),
  );
  add(
    'velocity',
    recent > VELOCITY_LIMIT,
    `${recent} card${recent === 1 ? '' : 's'} from this customer in the last 24 hours (more than ${VELOCITY_LIMIT} is flagged).`,
  );

  const [owner] = await tx
    .select({ createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, card.userId));
  const age = card.now.getTime() - owner!.createdAt.getTime();
  // Information only: every customer's first card comes from a new account.
  add(
    'new_account',
    age < DAY_MS ? 'info' : false,
    age < DAY_MS
      ? `The account was opened ${hoursAgo(age)} (less than 24 hours).`
      : `The account was opened ${Math.floor(age / DAY_MS)} day(s) ago.`,
  );

  const high = toCents(card.cardValue) >= HIGH_VALUE_CENTS;
  const threshold = formatMoney(fromCents(HIGH_VALUE_CENTS));
  add(
    'high_value',
    high,
    high
      ? `Card value ${formatMoney(card.cardValue)} is ${threshold} or more.`
      : `Card value ${formatMoney(card.cardValue)} is under ${threshold}.`,
  );

  // The server refuses lower values, so this passes; it records the rule applied.
  add(
    'minimum',
    false,
    `Card value ${formatMoney(card.cardValue)} meets the minimum of ${minimumAmount(card.terms.minimum)} for ${card.terms.brand === card.cardType ? card.cardType : `${card.cardType} (as ${card.terms.brand})`}.`,
  );

  await tx
    .insert(validationLogs)
    .values(results.map((r) => ({ ...r, transactionId: card.id, createdAt: card.now })));
  const status = results.some((r) => r.status === 'flagged') ? 'flagged' : 'passed';
  // The checks' verdict, not the card's lifecycle: written here, not through cards' changeCard.
  await tx
    .update(transactions)
    .set({ validationStatus: status })
    .where(eq(transactions.id, card.id));
  return status;
}

/** A card's checks, in the order they run, for the Review dialog. */
export async function checksOf(db: Db, transactionId: string) {
  const rows = await db
    .select()
    .from(validationLogs)
    .where(eq(validationLogs.transactionId, transactionId))
    .orderBy(asc(validationLogs.createdAt), asc(validationLogs.id));
  const rank = (type: string) => {
    const at = CHECK_TYPES.indexOf(type as CheckType);
    return at < 0 ? CHECK_TYPES.length : at;
  };
  return rows
    .sort((a, b) => rank(a.validationType) - rank(b.validationType))
    .map((r) => ({
      validationType: r.validationType,
      status: r.status,
      details: r.details ?? '',
      relatedTransactionIds: r.relatedTransactionIds,
      createdAt: r.createdAt.toISOString(),
    }));
}

/**
 * What must hold whatever the input: the answer's contract (no 5xx; every error is PRODUCT.md's
 * JSON shape with the security headers, and carries no internals), and the database's invariants
 * after a fuzz run (no transaction without images, no bank transfer without its fields, no money
 * with more than 2 decimals, no file in storage without a row once the sweep has run).
 */
import { readdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../../src/server/db/client';
import { deleteOrphanUploads, deleteUnrecordedFiles } from '../../src/server/modules/files/uploads';
import { checkLedger } from '../../src/server/modules/ledger';
import type { ObjectStorage } from '../../src/server/storage/object-storage';
import { OBJECT_KEY_PATTERN } from '../../src/server/storage/object-storage';
import { PAYMENT_METHOD_TYPES } from '../../src/shared/payment-methods';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/**
 * Keys an error body may have (PRODUCT.md): message, errors for 400, error on uploads, and the
 * machine-readable `code` of a refusal an issue's API contract names (`not_paid`, …).
 */
/**
 * The error body's keys; `requiredLevel` and `limit` (over a selling limit) and `until` (a payout
 * hold) are issue 19's API contract (decision 072).
 */
const ERROR_KEYS = new Set([
  'message',
  'errors',
  'error',
  'code',
  'requiredLevel',
  'limit',
  'until',
]);

/** Text that must never reach a client: stack frames, paths, SQL, driver errors. */
const INTERNALS =
  /\bat [\w.<>]+ \(|node_modules|\/work\/|\/src\/server|DrizzleQueryError|\bselect .+ from\b|\binsert into\b|syntax error at|violates .* constraint|ECONNREFUSED|TypeError|ReferenceError|RangeError|Cannot read propert/i;

const header = (answer: Answer, name: string) => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
};

/**
 * The contract of one answer. Returns what is wrong with it, or an empty list. `head` is true for
 * HEAD requests (no body to check); `page` when the route shows a page to a browser and the
 * request asked for HTML (Accept: text/html): an HTML error page is then the right answer.
 */
export function contractViolations(
  answer: Answer,
  options: { head?: boolean; page?: boolean } = {},
): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`${answer.status} answer`);
  if (answer.status < 400) return problems;

  if (header(answer, 'x-content-type-options') !== 'nosniff') {
    problems.push('error without X-Content-Type-Options: nosniff');
  }
  if (!header(answer, 'content-security-policy')) problems.push('error without a CSP header');
  if (options.head) return problems;

  const type = header(answer, 'content-type') ?? '';
  if (options.page && type.startsWith('text/html')) return problems;
  if (!type.startsWith('application/json')) {
    problems.push(`error with content type ${JSON.stringify(type)}, not JSON`);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    problems.push('error body is not JSON');
    return problems;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    problems.push('error body is not a JSON object');
    return problems;
  }
  const record = body as Record<string, unknown>;
  if (typeof record.message !== 'string' || record.message.trim() === '') {
    problems.push('error body has no message');
  }
  const extra = Object.keys(record).filter((k) => !ERROR_KEYS.has(k));
  if (extra.length > 0) problems.push(`error body has other keys: ${extra.join(', ')}`);
  if ('code' in record && !(typeof record.code === 'string' && /^[a-z_]+$/.test(record.code))) {
    problems.push(`error code is not a snake_case name: ${JSON.stringify(record.code)}`);
  }
  if ('errors' in record) {
    const errors = record.errors;
    if (
      !errors ||
      typeof errors !== 'object' ||
      Array.isArray(errors) ||
      Object.values(errors).some((v) => typeof v !== 'string')
    ) {
      problems.push('errors is not an object of field messages');
    }
  }
  if ('error' in record && record.error !== record.message) {
    problems.push('error and message differ');
  }
  if (INTERNALS.test(answer.body)) problems.push('error body shows internals');
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Database and storage

export interface InvariantResult {
  name: string;
  violations: number;
  examples: unknown[];
}

async function rows(database: Database, text: string) {
  return (await database.pool.query(text)).rows as Record<string, unknown>[];
}

/** Every numeric column whose name says it holds money (all money is numeric(10,2)). */
async function moneyColumns(database: Database) {
  const columns = await rows(
    database,
    `select table_name, column_name, numeric_scale from information_schema.columns
      where table_schema = 'public' and data_type = 'numeric'`,
  );
  return columns.filter((c) => !/rate/i.test(String(c.column_name))) as {
    table_name: string;
    column_name: string;
    numeric_scale: number | null;
  }[];
}

/** The SQL invariants of the data, each with how many rows break it and a few examples. */
export async function databaseInvariants(database: Database): Promise<InvariantResult[]> {
  const results: InvariantResult[] = [];
  // The books (issue 39): every card's money posted once, every entry balanced, as ledger:check.
  const mismatches = await checkLedger(database.db);
  results.push({
    name: 'the books match the cards (npm run ledger:check)',
    violations: mismatches.length,
    examples: mismatches.slice(0, 5),
  });
  const check = async (name: string, text: string) => {
    const found = await rows(database, text);
    results.push({ name, violations: found.length, examples: found.slice(0, 5) });
  };

  await check(
    'no transaction without images, but an e-code sold with its code (the partner API, issue 42)',
    `select id, image_urls from transactions
      where ((image_urls is null or cardinality(image_urls) = 0)
             and not (card_format = 'egift' and card_code is not null))
         or exists (select 1 from unnest(image_urls) u where u is null or btrim(u) = '')`,
  );
  await check(
    "every transaction image is an upload of the transaction's customer, claimed by it",
    `select t.id, u.url from transactions t cross join lateral unnest(t.image_urls) as u(url)
      where not exists (
        select 1 from uploads up
         where '/objects/' || up.key = u.url and up.kind = 'card'
           and up.transaction_id = t.id and up.owner_user_id = t.user_id)`,
  );
  await check(
    'no card image claimed by two transactions',
    `select u.url, count(*) from transactions t cross join lateral unnest(t.image_urls) as u(url)
      group by u.url having count(*) > 1`,
  );
  await check(
    'no bank_transfer payment method without its bank fields',
    `select id, account_number is null as no_number, bank_name is null as no_bank,
            routing_number is null as no_routing
       from payment_methods
      where type = 'bank_transfer'
        and (coalesce(btrim(account_number), '') = '' or coalesce(btrim(bank_name), '') = ''
             or coalesce(btrim(routing_number), '') = '')`,
  );
  await check(
    'no payment method of an unknown type',
    `select id, type from payment_methods
      where type not in (${PAYMENT_METHOD_TYPES.map((type) => `'${type}'`).join(', ')})`,
  );
  await check(
    'at most one visible default payment method per customer',
    `select user_id, count(*) from payment_methods
      where is_default and deleted_at is null group by user_id having count(*) > 1`,
  );
  await check(
    "a transaction's payment method is its customer's",
    `select t.id from transactions t join payment_methods p on p.id = t.payment_method_id
      where p.user_id <> t.user_id`,
  );

  const money = await moneyColumns(database);
  for (const column of money) {
    // The Analytics rollups (decision 085) append differences, below 0 until folded into sums.
    const { table_name: table, column_name: name } = column;
    const below0 = table.startsWith('analytics_') ? `(folded and ${name} < 0)` : `${name} < 0`;
    await check(
      `no money with more than 2 decimals, nor below 0: ${table}.${name}`,
      `select ${name}::text as value from ${table}
        where ${name} is not null
          and (${name} <> round(${name}, 2) or scale(${name}) > 2 or ${below0})`,
    );
  }
  results.push({
    name: 'every money column is declared with at most 2 decimals',
    violations: money.filter((c) => c.numeric_scale === null || c.numeric_scale > 2).length,
    examples: money.filter((c) => c.numeric_scale === null || c.numeric_scale > 2),
  });

  await check(
    'no known status outside its list',
    `select id, status, payment_status from transactions
      where status not in ('pending','processing','completed','rejected','withdrawn')
         or payment_status not in ('pending','sent','confirmed')`,
  );
  await check(
    'no control character in single-line text',
    `select 'users' as t, id::text from users
      where first_name ~ '[\\x01-\\x1f\\x7f]' or last_name ~ '[\\x01-\\x1f\\x7f]' or email ~ '[\\x01-\\x1f\\x7f]'
     union all
     select 'payment_methods', id::text from payment_methods
      where account_name ~ '[\\x01-\\x1f\\x7f]' or identifier ~ '[\\x01-\\x1f\\x7f]'
         or account_number ~ '[\\x01-\\x1f\\x7f]' or bank_name ~ '[\\x01-\\x1f\\x7f]'
         or routing_number ~ '[\\x01-\\x1f\\x7f]'
     union all
     select 'transactions', id::text from transactions where card_type ~ '[\\x01-\\x1f\\x7f]'
     union all
     select 'support_tickets', id::text from support_tickets
      where subject ~ '[\\x01-\\x1f\\x7f]' or email ~ '[\\x01-\\x1f\\x7f]'`,
  );
  await check(
    'a rejection reason only on a rejected card, from the list, and Other with its note',
    // A card rejected for its answer to a revised offer says which (decision 073).
    `select id, status, rejection_reason, rejection_note from transactions
      where (rejection_reason is not null and status <> 'rejected')
         or rejection_reason not in ('code_invalid','already_redeemed','balance_differs',
                                     'image_unreadable','suspected_fraud','other')
         or ((rejection_reason = 'other') <> (coalesce(btrim(rejection_note), '') <> '')
             and not (rejection_reason = 'balance_differs'
                      and rejection_note in ('offer declined', 'offer expired')
                      and offer_status in ('declined', 'expired')))
         or (rejection_reason is null and rejection_note is not null)`,
  );
  await check(
    'never paid below the quote, unless the customer accepted a revised offer, and not below it',
    `select id, payment_amount, expected_payout, offer_status, offer_amount from transactions
      where payment_amount is not null
        and payment_amount < case when offer_status = 'accepted' then offer_amount
                                  else expected_payout end`,
  );
  await check(
    'a revised offer waiting for its answer holds the card in review, unpaid',
    `select id, status, payment_status from transactions
      where offer_status = 'pending' and (status <> 'processing' or payment_status <> 'pending')`,
  );
  await check(
    "a rating is 1 to 5, of the rater's own card",
    `select f.id, f.rating from feedback f left join transactions t on t.id = f.transaction_id
      where f.rating not between 1 and 5 or t.user_id <> f.user_id`,
  );
  await check(
    'a chat attachment is a chat upload of that conversation',
    `select m.id, m.attachment_url from chat_messages m
      where m.attachment_url is not null and not exists (
        select 1 from uploads u where '/objects/' || u.key = m.attachment_url
           and u.kind = 'chat' and u.conversation_user_id = m.user_id)`,
  );
  await check(
    "a ticket's reply count and last writer are those of its thread",
    `select t.id, t.reply_count, t.last_reply_by from support_tickets t
      where t.reply_count <> (select count(*) from ticket_replies r where r.ticket_id = t.id)
         or t.last_reply_by <> coalesce(
              (select r.author_kind from ticket_replies r where r.ticket_id = t.id
                order by r.created_at desc, r.id desc limit 1), 'user')`,
  );
  await check(
    "a conversation's unread count is its customer's unread messages",
    `select c.user_id, c.unread_count from chat_conversations c
      where c.unread_count <> (select count(*) from chat_messages m
              where m.user_id = c.user_id and m.sender_type = 'user' and not m.is_read)`,
  );
  return results;
}

/** Every file under the storage folder, as keys relative to it (temporary files included). */
async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(folder: string) {
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) {
      const full = path.join(folder, name);
      const info = await stat(full);
      if (info.isDirectory()) await walk(full);
      else out.push(path.relative(root, full).split(path.sep).join('/'));
    }
  }
  await walk(root);
  return out;
}

export interface SweepResult {
  orphanRowsRemoved: number;
  unrecordedFilesRemoved: number;
  invariants: InvariantResult[];
}

/**
 * Runs the housekeeping sweep as if its thresholds had passed (rows 25 hours old, files 2 hours
 * old), then checks storage against the uploads table: no file without a row, no temporary file,
 * no file outside the key pattern, no row without its file, no unused upload left.
 */
export async function sweepAndCheckStorage(
  database: Database,
  storage: ObjectStorage,
  objectsRoot: string,
): Promise<SweepResult> {
  // The app's clock is the database's now() for rows and the file's mtime for files: age both.
  await database.pool.query(`update uploads set created_at = created_at - interval '25 hours'`);
  const past = new Date(Date.now() - 2 * 3600_000);
  for (const file of await filesUnder(objectsRoot)) {
    await utimes(path.join(objectsRoot, file), past, past);
  }
  const orphanRowsRemoved = await deleteOrphanUploads(database.db, storage);
  const unrecordedFilesRemoved = await deleteUnrecordedFiles(database.db, storage);

  const files = await filesUnder(objectsRoot);
  // A file is known by its upload's row, or (a data export) by its export's row.
  const keys = new Set((await rows(database, 'select key from uploads')).map((r) => String(r.key)));
  const exportKeys = new Set(
    (await rows(database, 'select object_key from data_exports where object_key is not null')).map(
      (r) => String(r.object_key),
    ),
  );
  const invariants: InvariantResult[] = [];
  const add = (name: string, found: unknown[]) =>
    invariants.push({ name, violations: found.length, examples: found.slice(0, 5) });
  add(
    'no file in storage without a row (after the sweep)',
    files.filter((f) => OBJECT_KEY_PATTERN.test(f) && !keys.has(f) && !exportKeys.has(f)),
  );
  add(
    'no temporary or oddly named file in storage (after the sweep)',
    files.filter((f) => !OBJECT_KEY_PATTERN.test(f)),
  );
  const onDisk = new Set(files);
  add(
    'no upload row without its file',
    [...keys].filter((k) => !onDisk.has(k)),
  );
  add(
    'no unused upload left by the sweep',
    await rows(
      database,
      `select key from uploads
        where (kind = 'card' and transaction_id is null)
           or (kind = 'chat' and conversation_user_id is null)`,
    ),
  );
  return { orphanRowsRemoved, unrecordedFilesRemoved, invariants };
}

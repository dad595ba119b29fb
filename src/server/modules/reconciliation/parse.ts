import { fromCents, MONEY_PATTERN, toCents } from '../../../shared/money';
import { MAX_STATEMENT_LINES, type StatementLine } from '../../../shared/reconciliation';
import { badRequest } from '../../common/http-error';
import { csvRows } from '../files';

const COLUMNS = ['date', 'amount', 'reference', 'payee'] as const;
type Column = (typeof COLUMNS)[number];

/** A day as banks and payment providers write it: 2026-11-27, or 11/27/2026 (US). */
function dayOf(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const parts = iso
    ? [iso[1]!, iso[2]!, iso[3]!]
    : us
      ? [us[3]!, us[1]!.padStart(2, '0'), us[2]!.padStart(2, '0')]
      : null;
  if (!parts) return null;
  const day = parts.join('-');
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || !date.toISOString().startsWith(day) ? null : day;
}

/** An amount as statements write it ("$1,234.50", "-91.00" for money out): its size, in cents. */
function centsOf(text: string): number | null {
  const plain = text.replace(/[$,\s]/g, '').replace(/^[-+(]|\)$/g, '');
  if (!MONEY_PATTERN.test(plain)) return null;
  const cents = toCents(plain);
  return cents > 0 ? cents : null;
}

/**
 * A statement file's lines (CSV: date, amount, reference and optionally payee; a header row
 * naming them may put them in any order). Every line must read, or the file is refused with the
 * line's number and what is wrong: nothing is half imported.
 */
export function parseStatement(bytes: Buffer): StatementLine[] {
  const rows = csvRows(bytes);
  const first = rows[0]?.map((cell) => cell.toLowerCase()) ?? [];
  const header = COLUMNS.slice(0, 3).every((c) => first.includes(c));
  const at = (c: Column) => (header ? first.indexOf(c) : COLUMNS.indexOf(c));
  const body = header ? rows.slice(1) : rows;
  if (body.length === 0) throw badRequest('The file has no lines', 'file');
  if (body.length > MAX_STATEMENT_LINES) {
    throw badRequest(`A statement has at most ${MAX_STATEMENT_LINES} lines`, 'file');
  }
  return body.map((row, i) => {
    const lineNo = i + 1 + (header ? 1 : 0);
    const cell = (c: Column) => (at(c) >= 0 ? (row[at(c)] ?? '') : '');
    const refuse = (what: string) => badRequest(`Line ${lineNo}: ${what}`, 'file');
    const date = dayOf(cell('date'));
    if (!date) throw refuse(`"${cell('date')}" is not a date (YYYY-MM-DD)`);
    const cents = centsOf(cell('amount'));
    if (cents === null) throw refuse(`"${cell('amount')}" is not an amount`);
    const reference = cell('reference');
    if (!reference || reference.length > 200) {
      throw refuse('the reference is missing or longer than 200 characters');
    }
    return {
      lineNo,
      date,
      amount: fromCents(cents),
      reference,
      payee: cell('payee').slice(0, 200) || null,
    };
  });
}

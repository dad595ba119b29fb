import { z } from 'zod';

/**
 * Dates and numbers that arrive as text in a query string or a path (issue 43, item 6): each is
 * checked here, so a month 13, a day 32 or a year PostgreSQL has no day for is a 400 with its
 * message, never a 500 from a date that cannot be made or a query the database refuses.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD, from 1900 on (year 0 has no day in PostgreSQL). */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A UTC day named `name` in a query string, written YYYY-MM-DD. */
export const dateParam = (name: string) => {
  const message = `${name} must be a date written YYYY-MM-DD, such as 2026-11-24`;
  return z.string({ error: message }).refine(isCalendarDate, message);
};

/**
 * A whole number from `min` to `max` written in decimal digits: not `0x10`, `1e2`, `1.0`, a blank
 * or the parameter given twice, which `z.coerce.number()` took or answered with `NaN`.
 */
export const wholeNumberParam = (
  name: string,
  min: number,
  max: number,
  message = `${name} must be a whole number from ${min} to ${max}`,
) =>
  z
    .string({ error: message })
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);

/**
 * Money is a decimal string with at most 2 decimals ("100", "100.5", "100.50"), held as integer
 * cents for arithmetic: never a float. numeric(10,2) caps it at 99,999,999.99.
 */
export const MONEY_PATTERN = /^\d{1,8}(\.\d{1,2})?$/;
export const MAX_MONEY_CENTS = 9_999_999_999;

export function toCents(value: string): number {
  const trimmed = value.trim();
  if (!MONEY_PATTERN.test(trimmed)) throw new RangeError(`Not a money amount: ${value}`);
  const [whole, fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function fromCents(cents: number): string {
  const whole = Math.floor(cents / 100);
  const fraction = String(cents % 100).padStart(2, '0');
  return `${whole}.${fraction}`;
}

/** "1234.5" -> "$1,234.50" */
export function formatMoney(value: string | null | undefined): string {
  const cents = value == null || value === '' ? 0 : toCents(value);
  const [whole, fraction] = fromCents(cents).split('.');
  return `$${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** A rate such as "0.91" as integer basis points (9100). */
export function rateBasisPoints(rate: string): number {
  const match = /^0\.(\d{1,4})$|^1(\.0{1,4})?$/.exec(rate.trim());
  if (!match) throw new RangeError(`Not a rate: ${rate}`);
  return match[1] === undefined ? 10_000 : Number(match[1].padEnd(4, '0'));
}

/** Expected payout = value × rate, rounded half up to the cent (spec section 9). */
export function expectedPayout(value: string, rate: string): string {
  const product = toCents(value) * rateBasisPoints(rate);
  return fromCents(Math.floor((product + 5_000) / 10_000));
}

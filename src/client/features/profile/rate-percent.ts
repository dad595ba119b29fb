/** A rate alert's threshold as sellers type it: a percent (issue 41, decision 150). */

export const PERCENT_MESSAGE = 'Enter a rate from 1% to 100%, with at most 2 decimals';

/**
 * "90" or "87.5" (percent, as sellers read rates) as the API's rate text ("0.9000", "0.8750"), in
 * integer basis points; undefined when it is not a percent from 1 to 100.
 */
export function percentToRate(value: string): string | undefined {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(value.trim().replace(/%$/, '').trim());
  if (!match) return undefined;
  const bp = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (bp < 100 || bp > 10_000) return undefined;
  return `${Math.floor(bp / 10_000)}.${String(bp % 10_000).padStart(4, '0')}`;
}

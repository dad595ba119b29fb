import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

/**
 * Every ISO 3166-1 country, from a maintained list (`i18n-iso-countries`, issue 43 item 21), not
 * one of our own: the verification form offers them all and the server takes only these codes.
 */
countries.registerLocale(en);

/** Alpha-2 codes of every ISO 3166-1 country, sorted by their English name. */
export const COUNTRY_CODES: readonly string[] = Object.keys(countries.getAlpha2Codes()).sort(
  (a, b) => countryName(a).localeCompare(countryName(b)),
);

export const isCountryCode = (code: string) => countries.isValid(code) && code.length === 2;

/** A country's English name ("United States of America"), or the code when it is not one. */
export function countryName(code: string): string {
  return countries.getName(code, 'en', { select: 'official' }) ?? code;
}

/** Countries whose addresses need a state or region (a US state, a Canadian province…). */
export const REGION_REQUIRED = ['US', 'CA', 'AU'];

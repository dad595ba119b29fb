import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryName, isCountryCode } from './countries';
import { dateOfBirthText } from './verification';
import { createVerificationSchema, REGION_MISSING } from './verification-submission';

describe('countries (issue 43 item 21)', () => {
  it('offers every ISO 3166-1 country from the maintained list, sorted by name', () => {
    expect(COUNTRY_CODES.length).toBeGreaterThanOrEqual(249);
    for (const code of ['US', 'GB', 'NG', 'PH', 'BR', 'VN', 'ZW', 'AX']) {
      expect(COUNTRY_CODES).toContain(code);
    }
    const names = COUNTRY_CODES.map(countryName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(countryName('DE')).toBe('Germany');
    expect(isCountryCode('ZZ')).toBe(false);
  });

  it('needs a state or region for a US address, and takes none elsewhere', () => {
    const address = (country: string, region?: string) =>
      createVerificationSchema.safeParse({
        level: 2,
        addressLine1: '1 Main Street',
        city: 'Springfield',
        region,
        postalCode: '12345',
        country,
        proofImages: ['/objects/verification/00000000-0000-0000-0000-000000000000.jpg'],
      });
    expect(address('US').error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['region', REGION_MISSING],
    ]);
    expect(address('US', 'IL').data).toMatchObject({ region: 'IL', country: 'US' });
    expect(address('GB').data).toMatchObject({ region: null, country: 'GB' });
  });

  it('writes a date of birth in words with the age', () => {
    expect(dateOfBirthText('1990-03-04', new Date('2026-11-27T12:00:00Z'))).toBe(
      'March 4, 1990 (36 years old)',
    );
    expect(dateOfBirthText('2008-12-01', new Date('2026-11-27T12:00:00Z'))).toBe(
      'December 1, 2008 (17 years old)',
    );
  });
});

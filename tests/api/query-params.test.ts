import { describe, expect, it } from 'vitest';
import { as, setUpStaff, setUpTestApp } from './helpers';

/**
 * Every date and number the API reads from a query string or a path (issue 43, item 6): a value
 * that is not one is a 400 naming the parameter, never a 500 and never taken for another value.
 */
const t = setUpTestApp();
const owner = setUpStaff(t);

const get = (url: string) => as(t.app, owner, { method: 'GET', url });

const BAD_DATES = [
  'from=2026-13-01',
  'to=2026-00-10',
  'from=2026-12-32',
  'from=2026-02-29',
  'to=0001-01-05',
  'from=0000-01-01',
  'from=2026-1-1',
  'to=2026-01-01T00:00:00Z',
  'from=2026-01-01&from=2026-01-02',
];

const BAD_NUMBERS = [
  'abc',
  '0x10',
  '1e2',
  '1.5',
  '',
  '%20',
  '0',
  '101',
  '-1',
  '99999999999999999999',
];

const LISTS = [
  '/api/admin/transactions',
  '/api/admin/users',
  '/api/admin/conversations',
  '/api/admin/support-tickets',
  '/api/admin/verifications',
];

describe('dates in query strings', () => {
  it('answers 400 naming the parameter for a day that does not exist, on analytics and its CSV', async () => {
    for (const path of ['/api/admin/analytics', '/api/admin/analytics.csv']) {
      for (const query of BAD_DATES) {
        const response = await get(`${path}?${query}`);
        expect(response.statusCode, `${path}?${query}: ${response.body}`).toBe(400);
        const name = query.split('=')[0]!;
        const message = `${name} must be a date written YYYY-MM-DD, such as 2026-11-24`;
        expect(response.json()).toEqual({ message, errors: { [name]: message } });
      }
      expect((await get(`${path}?from=2024-02-29&to=2024-03-01`)).statusCode).toBe(200);
    }
  });
});

describe('numbers in query strings and paths', () => {
  it('answers 400 for a page size that is not a whole number from 1 to 100, on every list', async () => {
    const message = 'limit must be a whole number from 1 to 100';
    for (const path of LISTS) {
      for (const value of [...BAD_NUMBERS, '1&limit=2']) {
        const response = await get(`${path}?limit=${value}`);
        expect(response.statusCode, `${path}?limit=${value}: ${response.body}`).toBe(400);
        expect(response.json()).toEqual({ message, errors: { limit: message } });
      }
      expect((await get(`${path}?limit=100`)).statusCode).toBe(200);
    }
  });

  it('answers 400 for a verification level that is not 0, 1 or 2, and changes no limits', async () => {
    const before = (await get('/api/admin/limits')).json();
    const payload = { perCard: '1.00', perDay: '2.00', per30Days: '3.00' };
    const message = 'level must be 0, 1 or 2';
    for (const level of [...BAD_NUMBERS.filter((v) => v !== '0'), '3', '0x1', '1e0', '1.0']) {
      const response = await as(t.app, owner, {
        method: 'PUT',
        url: `/api/admin/limits/${level}`,
        payload,
      });
      expect(response.statusCode, `level ${level}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({ message, errors: { level: message } });
    }
    expect((await get('/api/admin/limits')).json()).toEqual(before);
  });
});

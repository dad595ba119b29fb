import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * changeCard is the one write of a card's lifecycle and money (change.ts): the ledger's posting
 * will hang on it. This reads the server's source for every other UPDATE of `transactions` and
 * checks that it writes only columns outside the lifecycle, each listed here with its reason.
 */
const OUTSIDE_THE_LIFECYCLE: Record<string, string[]> = {
  // A claimed review (decision 078).
  'modules/cards/claims.ts': ['claimedById', 'claimedByName', 'claimedUntil'],
  // keys:rotate re-seals a code (decision 082).
  'modules/cards/card-code.ts': ['cardCode', 'cardCodeHash'],
  // An erased account's own words (decision 083).
  'modules/cards/erasure.ts': ['notes', 'appealMessage'],
  // Why a new card waits for a person, and a sampled card's after-review (decision 131).
  'modules/cards/instant.ts': ['instantDecision', 'sampleStatus'],
  // The automated checks' verdict at submission (decision 054).
  'modules/checks/checks.ts': ['validationStatus'],
};

const SERVER = path.resolve(import.meta.dirname, '../..');

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });

/** The keys an object literal's text sets: `a: 1, b, ...c` as a, b and `...`. */
const keysOf = (body: string) =>
  body
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (part.startsWith('...') ? '...' : part.split(':')[0]!.trim()));

/** Each `.update(transactions).set({ … })` of a file's text: the keys it sets. */
const updatesOf = (text: string) =>
  [...text.matchAll(/\.update\(transactions\)\s*\.set\(\{([^}]*)\}/g)].map((m) => keysOf(m[1]!));

describe('the writes of a card', () => {
  it('change only columns outside the lifecycle anywhere but changeCard', () => {
    const found: Record<string, string[]> = {};
    for (const file of sources(SERVER)) {
      const name = path.relative(SERVER, file);
      if (name === 'modules/cards/change.ts') continue;
      const text = readFileSync(file, 'utf8');
      expect(text, `${name}: update the transactions table with Drizzle`).not.toMatch(
        /update\s+transactions\b/i,
      );
      const updates = updatesOf(text);
      if (updates.length > 0) found[name] = [...new Set(updates.flat())].sort();
      if (/\.update\(transactions\)/.test(text)) {
        expect(updates.length, `${name}: an update of transactions without .set({ … })`).toBe(
          text.match(/\.update\(transactions\)/g)!.length,
        );
      }
    }
    expect(found).toEqual(
      Object.fromEntries(
        Object.entries(OUTSIDE_THE_LIFECYCLE).map(([name, columns]) => [name, columns.sort()]),
      ),
    );
  });
});

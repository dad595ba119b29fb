import { describe, expect, it } from 'vitest';
import { BatchLoader, groupBy } from './batch';

/** A loader over `data` that records the keys of each statement it would send. */
function recording(data: Record<string, number>, fail?: (keys: string[]) => boolean) {
  const statements: string[][] = [];
  const loader = new BatchLoader<string, number>(
    async (keys) => {
      statements.push(keys);
      await new Promise((r) => setTimeout(r, 5));
      if (fail?.(keys)) throw new Error('the database failed');
      return new Map(keys.filter((k) => k in data).map((k) => [k, data[k]!]));
    },
    () => 0,
    3,
  );
  return { loader, statements };
}

describe('BatchLoader', () => {
  it('sends what is asked for together, once per key, and gives each key its own value', async () => {
    const { loader, statements } = recording({ a: 1, b: 2, c: 3 });
    const values = await Promise.all(['a', 'b', 'a', 'x'].map((k) => loader.load(k)));
    expect(values).toEqual([1, 2, 1, 0]);
    expect(statements).toEqual([['a', 'b', 'x']]);
  });

  it('holds keys asked for while a statement runs for the next one, never joining it late', async () => {
    const { loader, statements } = recording({ a: 1, b: 2, c: 3, d: 4 });
    const first = loader.load('a');
    await new Promise((r) => setImmediate(r)); // the statement for "a" is running now
    const later = [loader.load('b'), loader.load('c'), loader.load('a')];
    expect(await first).toBe(1);
    expect(await Promise.all(later)).toEqual([2, 3, 1]);
    expect(statements).toEqual([['a'], ['b', 'c', 'a']]);
  });

  it('sends at most maxKeys keys in one statement', async () => {
    const { loader, statements } = recording({ a: 1, b: 2, c: 3, d: 4 });
    expect(await Promise.all(['a', 'b', 'c', 'd'].map((k) => loader.load(k)))).toEqual([
      1, 2, 3, 4,
    ]);
    expect(statements).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('fails every key of a failed statement, and goes on with the next', async () => {
    const { loader } = recording({ a: 1, b: 2 }, (keys) => keys.includes('a'));
    await expect(Promise.all([loader.load('a'), loader.load('b')])).rejects.toThrow(
      'the database failed',
    );
    expect(await loader.load('b')).toBe(2);
  });
});

describe('groupBy', () => {
  it('keeps the order rows came in within each group', () => {
    const rows = [
      { k: 'x', n: 1 },
      { k: 'y', n: 2 },
      { k: 'x', n: 3 },
    ];
    expect(groupBy(rows, (r) => r.k)).toEqual(
      new Map([
        [
          'x',
          [
            { k: 'x', n: 1 },
            { k: 'x', n: 3 },
          ],
        ],
        ['y', [{ k: 'y', n: 2 }]],
      ]),
    );
  });
});

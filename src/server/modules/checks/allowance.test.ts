import { describe, expect, it, vi } from 'vitest';
import { Allowance } from './allowance';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('Allowance', () => {
  it('grants in order of asking, each once its whole amount is free', async () => {
    const allowance = new Allowance(10);
    const order: string[] = [];
    await allowance.take(6);
    const big = allowance.take(8).then(() => order.push('big'));
    const small = allowance.take(1).then(() => order.push('small'));
    await settled();
    // 4 are free, enough for the small one, but it asked after the big one.
    expect(order).toEqual([]);
    allowance.give(6);
    await Promise.all([big, small]);
    expect(order).toEqual(['big', 'small']);
  });

  it('stops the waiters when nothing is given back for a while, not while turns keep coming', async () => {
    vi.useFakeTimers();
    try {
      const turns = new Allowance(1, 1000);
      expect(await turns.take(1)).toBe(true);
      const second = turns.take(1);
      const third = turns.take(1);
      vi.advanceTimersByTime(900);
      turns.give(1);
      expect(await second).toBe(true);
      // A turn was given 900 ms in: the third waits on, past the first second.
      vi.advanceTimersByTime(900);
      let thirdTook: boolean | undefined;
      void third.then((took) => {
        thirdTook = took;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(thirdTook).toBeUndefined();
      // The second holds its turn (a slow client): 1 s after the last give, the third goes on.
      await vi.advanceTimersByTimeAsync(100);
      expect(thirdTook).toBe(false);
      // It took nothing: when the second gives its turn back, one turn is free again.
      turns.give(1);
      expect(await turns.take(1)).toBe(true);
      expect(await Promise.race([turns.take(1), Promise.resolve('waiting')])).toBe('waiting');
    } finally {
      vi.useRealTimers();
    }
  });
});

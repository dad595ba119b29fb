import { describe, expect, it } from 'vitest';
import { STAFF } from '../common/command';
import { LiveHub } from './hub';
import { payloads } from './pg-bridge';

/** What customer u1's one subscriber (session s1) is told: the topics, or 'closed'. */
function subscribed(hub: LiveHub): string[][] {
  const got: string[][] = [];
  hub.subscribe({
    scope: 'u1',
    sid: 's1',
    accountKey: 'user:u1',
    send: (topics) => got.push(topics),
    close: () => got.push(['closed']),
  });
  return got;
}

describe('LiveHub stamps', () => {
  it('change with their topic in their scope only', () => {
    const hub = new LiveHub();
    const before = {
      mine: hub.stamp('u1', 'transactions'),
      chat: hub.stamp('u1', 'chat'),
      other: hub.stamp('u2', 'transactions'),
      staff: hub.stamp(STAFF, 'queue'),
    };
    hub.changed(['u1', STAFF], ['transactions', 'queue']);
    expect(hub.stamp('u1', 'transactions')).not.toBe(before.mine);
    expect(hub.stamp(STAFF, 'queue')).not.toBe(before.staff);
    expect(hub.stamp('u1', 'chat')).toBe(before.chat);
    expect(hub.stamp('u2', 'transactions')).toBe(before.other);
    hub.changedEverywhere(['chat']);
    expect(hub.stamp('u1', 'chat')).not.toBe(before.chat);
    expect(hub.stamp('u9', 'chat')).not.toBe(before.chat);
  });

  it('rise with every change and every loss of coherence, never returning to an old value', () => {
    const hub = new LiveHub();
    const stamps = [hub.stamp('a', 'stats')];
    hub.changed(['a'], ['stats']);
    stamps.push(hub.stamp('a', 'stats'));
    hub.setCoherent(false);
    stamps.push(hub.stamp('a', 'stats'));
    hub.setCoherent(true);
    stamps.push(hub.stamp('a', 'stats'));
    hub.changed(['a'], ['stats']);
    stamps.push(hub.stamp('a', 'stats'));
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]).toBeGreaterThan(stamps[i - 1]!);
  });

  it('tells subscribers of a scope which of their topics changed', () => {
    const hub = new LiveHub();
    const got = subscribed(hub);
    hub.changed(['u1', STAFF], ['transactions', 'queue']);
    hub.changed(['u2'], ['chat']);
    hub.sessionsEnded(['s1']);
    expect(got).toEqual([['transactions'], ['closed']]);
  });
});

describe('changes an instance works out for itself (decision 155)', () => {
  it('are applied and told to subscribers here, never published to other instances', () => {
    const hub = new LiveHub();
    const published: unknown[] = [];
    hub.publish = (message) => published.push(message);
    const got = subscribed(hub);
    const before = hub.stamp('u1', 'transactions');
    hub.changedHere(['u1'], ['transactions']);
    expect(hub.stamp('u1', 'transactions')).toBeGreaterThan(before);
    expect(got).toEqual([['transactions']]);
    expect(published).toEqual([]);
    hub.changed(['u1'], ['stats']);
    expect(published).toHaveLength(1);
  });

  it('are watched: a watcher runs after each change applied, its own or another instance’s', () => {
    const hub = new LiveHub();
    const seen: number[] = [];
    hub.watch(() => seen.push(hub.stamp(STAFF, 'queue')));
    hub.changed([STAFF], ['queue']);
    hub.receive({ changed: { scopes: [STAFF], topics: ['queue'] } });
    hub.setCoherent(false);
    expect(seen).toHaveLength(3);
    expect(seen[1]).toBeGreaterThan(seen[0]!);
    expect(seen[2]).toBeGreaterThan(seen[1]!);
  });

  it('hold a topic’s answers while they are worked out, and let go when the work ends, even failed', async () => {
    const hub = new LiveHub();
    let finish!: () => void;
    const work = new Promise<void>((resolve) => {
      finish = resolve;
    });
    hub.settle('transactions', work);
    expect(hub.settled('transactions')).toBe(work);
    expect(hub.settled('stats')).toBeUndefined();
    finish();
    await work;
    await Promise.resolve();
    expect(hub.settled('transactions')).toBeUndefined();
    const failed = Promise.reject(new Error('the read failed'));
    hub.settle('transactions', failed);
    await failed.catch(() => {});
    await Promise.resolve();
    expect(hub.settled('transactions')).toBeUndefined();
  });
});

describe('change notifications', () => {
  it('fit in PostgreSQL payloads however many sessions end at once', () => {
    const sids = Array.from({ length: 1000 }, (_, i) => i.toString(16).padStart(64, '0'));
    const parts = payloads({
      from: 'me',
      endedSids: sids,
      changed: { scopes: ['a'], topics: ['chat'] },
    });
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(part.length).toBeLessThan(8000);
    const back = parts.map((p) => JSON.parse(p));
    expect(back.flatMap((p) => p.endedSids ?? [])).toEqual(sids);
    expect(back.filter((p) => p.changed)).toHaveLength(1);
    expect(back.every((p) => p.from === 'me')).toBe(true);
  });
});

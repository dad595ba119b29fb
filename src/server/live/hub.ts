import { randomUUID } from 'node:crypto';
import { CUSTOMER_TOPICS, type LiveTopic, STAFF_TOPICS } from '../../shared/live';
import { STAFF } from '../common/command';
import { SessionCache } from '../common/session-cache';
import { ResponseCache } from './response-cache';

/** What one instance tells the others (through PostgreSQL NOTIFY), and applies itself. */
export interface LiveMessage {
  /** Scopes and the topics that changed in them. */
  changed?: { scopes: string[]; topics: LiveTopic[] };
  /** Topics that changed in every scope (clearing all chats). */
  everywhere?: LiveTopic[];
  /** Sessions that ended: refused at once, their event streams closed. */
  endedSids?: string[];
  /** Accounts whose data changed: their cached sessions reload it. */
  accounts?: string[];
}

export interface Subscriber {
  scope: string;
  sid: string;
  accountKey: string;
  send(topics: LiveTopic[]): void;
  close(): void;
}

/** Versions kept; past this the least recently changed are forgotten (see `floor`). */
const MAX_VERSIONS = 500_000;

const SCOPE_TOPICS = {
  customer: new Set<LiveTopic>(CUSTOMER_TOPICS),
  staff: new Set<LiveTopic>(STAFF_TOPICS),
};

/**
 * The in-process view of what changed: a version per scope and topic, bumped by the code path
 * that writes, so a poll whose versions are unchanged is answered from memory. Holds the session
 * and response caches, and the open event streams. Other instances hear of each change through
 * `publish` (set by the PostgreSQL bridge); with the embedded database there is one process.
 */
export class LiveHub {
  readonly instanceId = randomUUID();
  readonly sessions = new SessionCache();
  readonly responses: ResponseCache;
  /**
   * Every bump takes the next value of one counter. A topic's stamp is the newest of its scope's
   * value, its everywhere value and the floor; the floor rises past whatever is forgotten (the
   * oldest versions, or all of them when the link to other instances drops), so a stamp never
   * returns to a value an older answer was cached with.
   */
  private counter = 0;
  private floor = 0;
  private readonly versions = new Map<string, number>();
  private readonly everywhere = new Map<LiveTopic, number>();
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  /**
   * False while changes made by other instances might not reach this one (the notification link
   * is down): nothing is answered from memory then.
   */
  private coherentNow = true;
  publish: ((message: LiveMessage) => void) | null = null;
  /** Called after each change this instance applies, its own or another's (see `watch`). */
  private readonly watchers = new Set<() => void>();
  /** Work in flight that will change a topic for some scopes: its cached answers wait for it. */
  private readonly settling = new Map<LiveTopic, Promise<void>>();

  /** `responseBodyBytes` bounds the bodies kept (ETags and stamps are kept for every answer). */
  constructor(responseBodyBytes = 8 * 1024 * 1024) {
    this.responses = new ResponseCache(responseBodyBytes);
  }

  get coherent() {
    return this.coherentNow;
  }

  /** A number that changes whenever `topic` changes in `scope`. */
  stamp(scope: string, topic: LiveTopic): number {
    return Math.max(
      this.floor,
      this.versions.get(`${scope} ${topic}`) ?? 0,
      this.everywhere.get(topic) ?? 0,
    );
  }

  /** Call after the write committed: `scopes` are customer ids and/or STAFF. */
  changed(scopes: string[], topics: LiveTopic[]) {
    this.send({ changed: { scopes, topics } });
  }

  changedEverywhere(topics: LiveTopic[]) {
    this.send({ everywhere: topics });
  }

  sessionsEnded(sids: string[]) {
    if (sids.length > 0) this.send({ endedSids: sids });
  }

  accountChanged(key: string) {
    this.send({ accounts: [key] });
  }

  /**
   * A change this instance derived for itself, as every instance does from the same change (the
   * queue's places, modules/cards/queue-places.ts): applied here, told to no other instance.
   */
  changedHere(scopes: string[], topics: LiveTopic[]) {
    this.apply({ changed: { scopes, topics } });
  }

  /**
   * `watcher` runs after every change applied here, and when the link to other instances drops or
   * returns.
   */
  watch(watcher: () => void) {
    this.watchers.add(watcher);
  }

  /**
   * `work` will change `topic` for some scopes (changedHere): until it ends, answers of the topic
   * wait for it rather than come from memory (the live plugin).
   */
  settle(topic: LiveTopic, work: Promise<void>) {
    this.settling.set(topic, work);
    const done = () => {
      if (this.settling.get(topic) === work) this.settling.delete(topic);
    };
    work.then(done, done);
  }

  /** The work `topic`'s answers wait for, if any. */
  settled(topic: LiveTopic): Promise<void> | undefined {
    return this.settling.get(topic);
  }

  /** Applies a message from another instance. */
  receive(message: LiveMessage) {
    this.apply(message);
  }

  /**
   * The link to the other instances went down or came back: forget everything that might have
   * changed unheard, and stop (or resume) answering from memory.
   */
  setCoherent(coherent: boolean) {
    this.coherentNow = coherent;
    this.floor = ++this.counter;
    this.versions.clear();
    this.everywhere.clear();
    this.sessions.clear();
    this.responses.clear();
    if (coherent) for (const set of this.subscribers.values()) for (const s of set) s.send([]);
    for (const watcher of this.watchers) watcher();
  }

  subscribe(subscriber: Subscriber): () => void {
    let set = this.subscribers.get(subscriber.scope);
    if (!set) {
      set = new Set();
      this.subscribers.set(subscriber.scope, set);
    }
    set.add(subscriber);
    return () => {
      set.delete(subscriber);
      if (set.size === 0) this.subscribers.delete(subscriber.scope);
    };
  }

  subscribersOf(accountKey: string): Subscriber[] {
    const found: Subscriber[] = [];
    for (const set of this.subscribers.values())
      for (const s of set) if (s.accountKey === accountKey) found.push(s);
    return found;
  }

  private send(message: LiveMessage) {
    this.apply(message);
    this.publish?.(message);
  }

  private apply(message: LiveMessage) {
    if (message.changed) {
      const { scopes, topics } = message.changed;
      for (const scope of scopes) {
        for (const topic of topics) this.bump(`${scope} ${topic}`);
        this.notify(scope, topics);
      }
    }
    if (message.everywhere) {
      for (const topic of message.everywhere) this.everywhere.set(topic, ++this.counter);
      for (const scope of this.subscribers.keys()) this.notify(scope, message.everywhere);
    }
    if (message.endedSids) {
      const ended = new Set(message.endedSids);
      this.sessions.endSids(ended);
      for (const set of this.subscribers.values())
        for (const s of [...set]) if (ended.has(s.sid)) s.close();
    }
    for (const key of message.accounts ?? []) this.sessions.forgetAccount(key);
    for (const watcher of this.watchers) watcher();
  }

  private bump(key: string) {
    this.versions.delete(key);
    this.versions.set(key, ++this.counter);
    if (this.versions.size > MAX_VERSIONS) {
      const [oldest, value] = this.versions.entries().next().value!;
      this.versions.delete(oldest);
      this.floor = Math.max(this.floor, value);
    }
  }

  private notify(scope: string, topics: LiveTopic[]) {
    const set = this.subscribers.get(scope);
    if (!set) return;
    const allowed = scope === STAFF ? SCOPE_TOPICS.staff : SCOPE_TOPICS.customer;
    const visible = topics.filter((t) => allowed.has(t));
    if (visible.length === 0) return;
    for (const s of set) s.send(visible);
  }
}

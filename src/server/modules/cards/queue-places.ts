import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { STAFF } from '../../common/command';
import type { Db } from '../../db/client';
import { prepared } from '../../db/prepared';
import { mappedOnce } from '../../db/rows';
import { transactions } from '../../db/schema';
import { isoText } from './payout-holds';

/** The instance's live hub (live/hub.ts), as the app holds it. */
type LiveHub = FastifyInstance['live'];

/** A pending card's place (issue 41): its position, oldest first, and its expected decision. */
export interface QueuePlace {
  userId: string;
  position: number;
  /** ISO text, as the answer carries it. */
  expectedDecisionAt: string;
}

/**
 * When a pending card can expect a decision: now plus its position times the minutes one staff
 * decision took over the last 24 hours (1,440 ÷ their number); with none, the 120-minute review
 * target per card ahead. Instant decisions are not staff throughput. "Now" is the minute, so the
 * same data reads as the same bytes within it (an answer's ETag names its data, live.test.ts).
 */
export const expectedDecisionAtOf = (position: unknown) =>
  sql`case when ${transactions.status} = 'pending' then date_trunc('minute', now()) + (${position}) * (
    select case when count(*) > 0 then 1440.0 / count(*) else 120 end from ${transactions} as decided
     where decided.first_decision_at > date_trunc('minute', now()) - interval '24 hours'
       and decided.decided_by is distinct from 'auto'
  ) * interval '1 minute' end`;

/** Every pending card's place, numbered in one pass over the (status, created_at, id) index. */
const placesStatement = (db: Db) =>
  prepared(db, 'queue-places', (db) => {
    const position = sql`row_number() over (order by ${transactions.createdAt}, ${transactions.id})`;
    return mappedOnce(
      db
        .select({
          id: transactions.id,
          userId: transactions.userId,
          position: sql<number>`(${position})::int`.mapWith(Number).as('position'),
          expectedDecisionAt: isoText(expectedDecisionAtOf(position)).as('expected_decision_at'),
        })
        .from(transactions)
        .where(eq(transactions.status, 'pending'))
        .prepare('queue-places'),
    );
  });

const minuteOf = (ms: number) => Math.floor(ms / 60_000);

/**
 * Every pending card's place, held in memory by each instance (decision 155). Numbering the queue
 * in the statement of each batch of customers' lists cost the database a pass over every pending
 * card per statement; with 20,000 pending and a decision a second, the polls' CPU an answer
 * tripled (docs/performance.md). Here the queue is read once per change of it, by each instance:
 * staff's `queue` topic changes with every card that joins or leaves it, whoever moved it
 * (a decision, a withdrawal, an appeal upheld, an account closed, a card sent back to pending).
 *
 * Each read is compared with the one before: the customers whose cards moved have their
 * `transactions` topic changed on this instance (every instance reads and compares for itself),
 * so their cached lists are read again and their open pages hear of it. While a read is in
 * flight, cached `transactions` answers wait for it (the hub's `settle`): none is served from
 * before the move once the move is known here.
 */
export class QueuePlaces {
  private places: Map<string, QueuePlace> | null = null;
  /** Staff's `queue` stamp when the held read began, and the minute it was made in (ours). */
  private stamp = -1;
  private minute = -1;
  private inFlight: { stamp: number; minute: number; done: Promise<void> } | null = null;
  private next: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly hub: LiveHub,
    private readonly now: () => number,
    onError: (error: unknown) => void,
  ) {
    // Only once a read is held: until an answer needs places, nothing depends on them.
    hub.watch(() => {
      if (this.places && this.hub.stamp(STAFF, 'queue') !== this.stamp) {
        this.refresh().catch(onError);
      }
    });
  }

  /**
   * The places, read after every change of the queue this instance knows of, in this minute (the
   * expected decisions count from it).
   */
  async current(): Promise<Map<string, QueuePlace>> {
    if (
      !this.places ||
      this.hub.stamp(STAFF, 'queue') !== this.stamp ||
      minuteOf(this.now()) !== this.minute
    ) {
      await this.refresh();
    }
    return this.places!;
  }

  /**
   * A read as new as this call: the one in flight will do if it began at the queue's current
   * stamp, in this minute; else the next one, which starts once it ends.
   */
  refresh(): Promise<void> {
    const stamp = this.hub.stamp(STAFF, 'queue');
    const flying = this.inFlight;
    if (!flying) return this.read(stamp);
    if (flying.stamp === stamp && flying.minute === minuteOf(this.now())) return flying.done;
    this.next ??= flying.done
      .catch(() => {})
      .then(() => {
        this.next = null;
        return this.inFlight ? this.inFlight.done : this.read(this.hub.stamp(STAFF, 'queue'));
      });
    this.hub.settle('transactions', this.next);
    return this.next;
  }

  private read(stamp: number): Promise<void> {
    const minute = minuteOf(this.now());
    const done = this.load(stamp, minute).finally(() => {
      if (this.inFlight?.done === done) this.inFlight = null;
    });
    this.inFlight = { stamp, minute, done };
    this.hub.settle('transactions', done);
    return done;
  }

  private async load(stamp: number, minute: number) {
    const rows = await placesStatement(this.db).execute();
    const places = new Map<string, QueuePlace>();
    const moved = new Set<string>();
    const before = this.places;
    for (const { id, ...place } of rows) {
      places.set(id, place);
      if (before && before.get(id)?.position !== place.position) moved.add(place.userId);
    }
    if (before) for (const [id, was] of before) if (!places.has(id)) moved.add(was.userId);
    this.places = places;
    this.stamp = stamp;
    this.minute = minute;
    if (moved.size > 0) this.hub.changedHere([...moved], ['transactions']);
  }
}

const byHub = new WeakMap<LiveHub, QueuePlaces>();

/** The app's places: one per app, on its database and its instance's hub. */
export function queuePlacesOf(app: FastifyInstance): QueuePlaces {
  let places = byHub.get(app.live);
  if (!places) {
    places = new QueuePlaces(app.db, app.live, app.now, (error) =>
      app.log.error({ err: error }, 'the queue places could not be read'),
    );
    byHub.set(app.live, places);
  }
  return places;
}

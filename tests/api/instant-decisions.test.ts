import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, clawbacks, transactions, users } from '../../src/server/db/schema';
import { INSTANT_RULES } from '../../src/shared/instant-decisions';
import { INSTANT_POLICY_OFF } from '../lib/instant-policy';
import { noiseImage } from '../lib/noise-image';
import {
  addPaymentMethod,
  as,
  CARD,
  multipart,
  type SignedIn,
  setUpStaff,
  setUpTestApp,
  signInAs,
  signUp,
} from './helpers';

/** Instant decisions for trusted sellers (issue 41, decision 131), each rule at its boundary. */

const t = setUpTestApp();
const owner = setUpStaff(t);
const DAY_MS = 24 * 60 * 60 * 1000;

const POLICY = {
  enabled: true,
  minLevel: 2,
  minCompletedCards: 10,
  maxCardValue: '200.00',
  maxDailyTotal: '500.00',
  brands: ['Amazon'],
  sampleRate: 0,
};

const setPolicy = (body: object, who: SignedIn = owner) =>
  as(t.app, who, { method: 'PUT', url: '/api/admin/instant-decisions', payload: body });

/** An image no other test makes: deterministic noise from `seed`, as a PNG. */
let seed = 4100;
const uniqueImage = () => noiseImage(seed++);

async function upload(who: SignedIn, bytes: Buffer) {
  const response = await as(t.app, who, {
    method: 'POST',
    url: '/api/upload-card-image',
    ...multipart(bytes, 'card.png', 'image/png'),
  });
  expect(response.statusCode).toBe(200);
  return response.json().objectPath as string;
}

/**
 * A seller of `level` with `completed` completed cards (40 days old, so nothing of theirs counts
 * as recent), an account a month old, a payment method, and a function that submits a card.
 */
async function seller({ level = 2, completed = 10 } = {}) {
  const who = await signUp(t.app);
  const db = t.database.db;
  await db
    .update(users)
    .set({ verificationLevel: level, createdAt: new Date(t.now() - 30 * DAY_MS) })
    .where(eq(users.id, who.user.id));
  if (completed > 0) {
    await db.insert(transactions).values(
      Array.from({ length: completed }, () => ({
        userId: who.user.id,
        cardType: 'Amazon',
        cardValue: '50.00',
        cardCondition: 'brand_new',
        cardFormat: 'egift',
        imageUrls: [],
        status: 'completed',
        paymentStatus: 'confirmed',
        payoutRate: '0.9100',
        expectedPayout: '45.50',
        createdAt: new Date(t.now() - 40 * DAY_MS),
      })),
    );
  }
  const method = await addPaymentMethod(t.app, who);
  const submit = async (body: object = {}, image?: string) =>
    as(t.app, who, {
      method: 'POST',
      url: '/api/transactions',
      payload: {
        ...CARD,
        paymentMethodId: method.id,
        imageUrls: [image ?? (await upload(who, await uniqueImage()))],
        scamCheck: 'no',
        ...body,
      },
    });
  return { who, submit };
}

/** A past card of the seller's, as staff left it `daysAgo` days ago. */
async function pastCard(userId: string, daysAgo: number, fields: object) {
  const at = new Date(t.now() - daysAgo * DAY_MS);
  const [row] = await t.database.db
    .insert(transactions)
    .values({
      userId,
      cardType: 'Amazon',
      cardValue: '50.00',
      cardCondition: 'brand_new',
      cardFormat: 'egift',
      imageUrls: [],
      payoutRate: '0.9100',
      expectedPayout: '45.50',
      createdAt: new Date(at.getTime() - DAY_MS),
      ...fields,
    })
    .returning({ id: transactions.id });
  return row!.id;
}

const detail = async (id: string) =>
  (await as(t.app, owner, { method: 'GET', url: `/api/admin/transactions/${id}` })).json();

/** Submits a card and answers whether it was decided at once, and why not when it was not. */
async function decided(submit: () => Promise<{ statusCode: number; json(): { id: string } }>) {
  const response = await submit();
  expect(response.statusCode).toBe(201);
  const card = await detail(response.json().id);
  return card.decidedBy === 'auto'
    ? { instant: true, because: [] as string[] }
    : { instant: false, because: card.instantDecision.refusedBecause as string[] };
}

describe('the instant-decision policy', () => {
  it('is read by owners and reviewers, set by owners only, validated and audited', async () => {
    const initial = await as(t.app, owner, { method: 'GET', url: '/api/admin/instant-decisions' });
    expect(initial.json()).toEqual(INSTANT_POLICY_OFF);
    const reviewer = await signInAs(t, 'reviewer');
    const finance = await signInAs(t, 'finance');
    const read = await as(t.app, reviewer, { method: 'GET', url: '/api/admin/instant-decisions' });
    expect(read.statusCode).toBe(200);
    expect(
      (await as(t.app, finance, { method: 'GET', url: '/api/admin/instant-decisions' })).statusCode,
    ).toBe(403);
    const refused = await setPolicy(POLICY, reviewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('forbidden_role');
    const bad = await setPolicy({ ...POLICY, sampleRate: 1.5, maxCardValue: '-1' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['maxCardValue', 'sampleRate']);
    const set = await setPolicy({ ...POLICY, maxCardValue: 200, sampleRate: '0.25' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ ...POLICY, sampleRate: 0.25 });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityType, 'instant_policy'));
    expect(audit?.changes).toMatchObject({ enabled: { from: false, to: true } });
  });
});

describe('instant decisions', () => {
  it('approve a trusted seller’s clean card at once, as staff would, naming the rules', async () => {
    await setPolicy(POLICY);
    const { who, submit } = await seller();
    const response = await submit();
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ status: 'processing', decidedBy: 'auto' });
    const card = await detail(response.json().id);
    expect(card).toMatchObject({
      decidedBy: 'auto',
      status: 'processing',
      paymentAmount: '91.00',
      instantDecision: { rules: [...INSTANT_RULES] },
      sampleStatus: null,
    });
    expect(card.firstDecisionAt).not.toBeNull();
    const approval = card.audit.find((a: { action: string }) => a.action === 'update');
    expect(approval.actorEmail).toBe('auto');
    expect(approval.changes.status).toEqual({ from: 'pending', to: 'processing' });
    expect(approval.changes.instantDecision.to.rules).toHaveLength(INSTANT_RULES.length);
    // The seller is told, and the books owe them the payout.
    const notices = await as(t.app, who, { method: 'GET', url: '/api/notifications' });
    expect(JSON.stringify(notices.json())).toContain(response.json().id);
    const stats = (await as(t.app, who, { method: 'GET', url: '/api/stats' })).json();
    expect(stats.awaitingPayment).toBe('91.00');
  });

  it('hold the card value at the limit, refusing one cent over', async () => {
    await setPolicy(POLICY);
    const { submit } = await seller();
    expect(await decided(() => submit({ cardValue: '200.00' }))).toEqual({
      instant: true,
      because: [],
    });
    expect(await decided(() => submit({ cardValue: '200.01' }))).toEqual({
      instant: false,
      because: ['card_value'],
    });
  });

  it('need the completed cards: one short waits', async () => {
    await setPolicy(POLICY);
    expect(await decided((await seller({ completed: 10 })).submit)).toMatchObject({
      instant: true,
    });
    expect(await decided((await seller({ completed: 9 })).submit)).toEqual({
      instant: false,
      because: ['completed_cards'],
    });
  });

  it('need the verification level', async () => {
    await setPolicy(POLICY);
    expect(await decided((await seller({ level: 1 })).submit)).toEqual({
      instant: false,
      because: ['verification_level'],
    });
    await setPolicy({ ...POLICY, minLevel: 1 });
    expect(await decided((await seller({ level: 1 })).submit)).toMatchObject({ instant: true });
  });

  it('look back 90 days for a fraud rejection: 89 days ago waits, 91 days ago does not', async () => {
    await setPolicy(POLICY);
    const recent = await seller();
    await pastCard(recent.who.user.id, 89, {
      status: 'rejected',
      rejectionReason: 'suspected_fraud',
      rejectedAt: new Date(t.now() - 89 * DAY_MS),
    });
    expect(await decided(recent.submit)).toEqual({ instant: false, because: ['clean_history'] });
    const old = await seller();
    await pastCard(old.who.user.id, 91, {
      status: 'rejected',
      rejectionReason: 'suspected_fraud',
      rejectedAt: new Date(t.now() - 91 * DAY_MS),
    });
    expect(await decided(old.submit)).toMatchObject({ instant: true });
    // A rejection for a reason that is not fraud-like does not count.
    const unreadable = await seller();
    await pastCard(unreadable.who.user.id, 10, {
      status: 'rejected',
      rejectionReason: 'image_unreadable',
      rejectedAt: new Date(t.now() - 10 * DAY_MS),
    });
    expect(await decided(unreadable.submit)).toMatchObject({ instant: true });
  });

  it('refuse a seller with a clawback or a lost appeal in 90 days', async () => {
    await setPolicy(POLICY);
    const clawed = await seller();
    const paid = await pastCard(clawed.who.user.id, 30, {
      status: 'completed',
      paymentStatus: 'sent',
    });
    await t.database.db.insert(clawbacks).values({
      transactionId: paid,
      userId: clawed.who.user.id,
      amount: '10.00',
      reason: 'chargeback',
      createdById: owner.user.id,
      createdAt: new Date(t.now() - 30 * DAY_MS),
    });
    expect(await decided(clawed.submit)).toEqual({ instant: false, because: ['clean_history'] });
    const appealed = await seller();
    await pastCard(appealed.who.user.id, 20, {
      status: 'rejected',
      rejectionReason: 'balance_differs',
      rejectedAt: new Date(t.now() - 25 * DAY_MS),
      appealStatus: 'upheld',
      appealDecidedAt: new Date(t.now() - 20 * DAY_MS),
    });
    expect(await decided(appealed.submit)).toEqual({
      instant: false,
      because: ['clean_history'],
    });
  });

  it('need the brand on the list, clean checks and a scam-check answer', async () => {
    await setPolicy(POLICY);
    const { who, submit } = await seller();
    expect(await decided(() => submit({ cardType: 'Visa' }))).toEqual({
      instant: false,
      because: ['brand_listed'],
    });
    expect(await decided(() => submit({ scamCheck: undefined }))).toEqual({
      instant: false,
      because: ['checks_clean'],
    });
    // The same photo file on two cards: the duplicate check flags the second.
    const bytes = await uniqueImage();
    expect(await decided(() => submit({}, undefined))).toMatchObject({ instant: true });
    const first = await upload(who, bytes);
    const second = await upload(who, bytes);
    expect(await decided(() => submit({}, first))).toMatchObject({ instant: true });
    expect(await decided(() => submit({}, second))).toEqual({
      instant: false,
      because: ['checks_clean'],
    });
  });

  it('keep the daily total: up to it is instant, one cent over waits', async () => {
    await setPolicy(POLICY);
    const { submit } = await seller();
    expect(await decided(() => submit({ cardValue: '200' }))).toMatchObject({ instant: true });
    expect(await decided(() => submit({ cardValue: '200' }))).toMatchObject({ instant: true });
    expect(await decided(() => submit({ cardValue: '100.01' }))).toEqual({
      instant: false,
      because: ['daily_total'],
    });
    expect(await decided(() => submit({ cardValue: '100' }))).toMatchObject({ instant: true });
  });

  it('never pass the daily total when 20 eligible cards arrive at once', async () => {
    await setPolicy({ ...POLICY, maxDailyTotal: '400.00' });
    const { who, submit } = await seller();
    const images = await Promise.all(
      Array.from({ length: 20 }, async () => upload(who, await uniqueImage())),
    );
    const responses = await Promise.all(images.map((image) => submit({ cardValue: '150' }, image)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const instant = responses.filter((r) => r.json().decidedBy === 'auto');
    // 150 + 150 fits 400; a third would be 450.
    expect(instant).toHaveLength(2);
    const stored = await t.database.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.userId, who.user.id), eq(transactions.decidedBy, 'auto')));
    expect(stored).toHaveLength(2);
    // The rest wait for a person, saying why.
    const waiting = await detail(responses.find((r) => r.json().decidedBy !== 'auto')!.json().id);
    expect(waiting.instantDecision.refusedBecause).toContain('daily_total');
  });

  it('do nothing when switched off: every card waits, and says so', async () => {
    await setPolicy({ ...POLICY, enabled: false });
    expect(await decided((await seller()).submit)).toEqual({
      instant: false,
      because: ['switched_on'],
    });
  });

  it('sample decisions for a person, who confirms each once', async () => {
    await setPolicy({ ...POLICY, sampleRate: 1 });
    const { submit } = await seller();
    const id = (await submit()).json().id;
    expect((await detail(id)).sampleStatus).toBe('pending');
    const list = await as(t.app, owner, {
      method: 'GET',
      url: '/api/admin/transactions?sampled=pending',
    });
    expect(list.json().map((c: { id: string }) => c.id)).toContain(id);
    expect(list.json().every((c: { sampleStatus: string }) => c.sampleStatus === 'pending')).toBe(
      true,
    );
    const review = (outcome: string) =>
      as(t.app, owner, {
        method: 'POST',
        url: `/api/admin/transactions/${id}/sample-review`,
        payload: { outcome },
      });
    expect((await review('maybe')).statusCode).toBe(400);
    const confirmed = await review('confirmed');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ sampleStatus: 'confirmed' });
    expect((await review('clawback')).statusCode).toBe(409);
    const after = await as(t.app, owner, {
      method: 'GET',
      url: '/api/admin/transactions?sampled=pending',
    });
    expect(after.json().map((c: { id: string }) => c.id)).not.toContain(id);
    await setPolicy({ ...POLICY, sampleRate: 0 });
    const unsampled = (await submit()).json().id;
    expect((await detail(unsampled)).sampleStatus).toBeNull();
  });
});

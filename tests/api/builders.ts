import { eq } from 'drizzle-orm';
import { beforeAll, expect } from 'vitest';
import type { AppConfig } from '../../src/server/config';
import { users } from '../../src/server/db/schema';
import type { StaffRole } from '../../src/shared/staff-roles';
import { ACH } from '../lib/ach';
import {
  addPaymentMethod,
  as,
  createTestApp,
  reviewCard,
  type SignedIn,
  setUpStaff,
  setUpTestApp,
  signInAs,
  signInStaff,
  signUp,
  submitCard,
  type TestApp,
} from './helpers';
import { setUpMailServer } from './mail-server';

/**
 * The API tests' shared builders beside helpers.ts: a file's app with its staff member, a card
 * submitted and approved, what its seller reads of it. Each asserts the answers it depends on.
 */

/**
 * The file's app (setUpTestApp) and a staff member of it signed in before the first test
 * (setUpStaff): `const { t, staff } = setUpAppWithStaff()`.
 */
export function setUpAppWithStaff(
  overrides: Parameters<typeof setUpTestApp>[0] = {},
  staffEmail?: string,
  options: Parameters<typeof setUpTestApp>[1] = {},
) {
  const t = setUpTestApp(overrides, options);
  return { t, staff: setUpStaff(t, staffEmail) };
}

/**
 * A mail server (setUpMailServer), the file's app sending to it and its staff member:
 * `const { mail, t, staff } = setUpAppWithMail()`.
 */
export function setUpAppWithMail(staffEmail?: string) {
  const mail = setUpMailServer();
  return { mail, ...setUpAppWithStaff(() => mail.appConfig(), staffEmail) };
}

/**
 * A fresh app of its own (createTestApp with `overrides` and `options`) for one test: `use` runs
 * on it, and it is closed however `use` ends.
 */
export async function withTestApp<T>(
  use: (t: TestApp) => Promise<T>,
  overrides: Parameters<typeof createTestApp>[0] = {},
  options: Parameters<typeof createTestApp>[1] = {},
): Promise<T> {
  const t = await createTestApp(overrides, options);
  try {
    return await use(t);
  } finally {
    await t.close();
  }
}

/** withTestApp with a staff member of the fresh app signed in (signInStaff). */
export const withAppAndStaff = <T>(
  use: (t: TestApp, staff: SignedIn) => Promise<T>,
  overrides: Parameters<typeof createTestApp>[0] = {},
) => withTestApp(async (t) => use(t, await signInStaff(t)), overrides);

/** A staff member of `role` of the file's app, signed in (signInAs) before the file's tests. */
export function setUpStaffAs(t: TestApp, role: StaffRole): SignedIn {
  const staff = {} as SignedIn;
  beforeAll(async () => {
    Object.assign(staff, await signInAs(t, role));
  });
  return staff;
}

/**
 * A customer's card as submitCard builds it (`body` replaces its defaults), asserted 201: its
 * seller (`who`, or a new customer), id and expected payout.
 */
export async function submittedCard(t: TestApp, body: object = {}, who?: SignedIn) {
  const seller = who ?? (await signUp(t.app));
  const response = await submitCard(t.app, seller, body);
  expect(response.statusCode, response.body).toBe(201);
  const { id, expectedPayout } = response.json() as { id: string; expectedPayout: string };
  return { who: seller, id, expectedPayout };
}

/**
 * A level-1 identity submission (POST /api/verification): Casey Customer, born 1990-04-01, of the
 * US, with a passport of `documentImages` and `selfieImage`; `overrides` replace any field.
 */
export const identityBody = (
  documentImages: string[],
  selfieImage: string,
  overrides: object = {},
) => ({
  level: 1,
  legalFirstName: 'Casey',
  legalLastName: 'Customer',
  dateOfBirth: '1990-04-01',
  country: 'US',
  documentType: 'passport',
  documentImages,
  selfieImage,
  ...overrides,
});

/** The app's payout rails with ACH configured (tests/lib/ach.ts) and no EVM chain. */
export const ACH_RAIL: Partial<AppConfig> = {
  payouts: { ach: ACH, evm: undefined, explorerTxUrl: 'https://bscscan.com/tx/' },
};

/**
 * A seller's card, submitted (asserted 201) and approved by `staff` (`status`, 'completed' unless
 * given; asserted 200), or left pending. The seller is `who` or a new one (named `name`); the card
 * is paid to `methodId`, or to a new method (`method`, PayPal unless given); `value` is its face
 * value ($100 unless given).
 */
export async function cardApprovedBy(
  t: TestApp,
  staff: SignedIn,
  options: {
    who?: SignedIn;
    name?: { firstName: string; lastName: string };
    method?: object;
    methodId?: string;
    value?: string;
    status?: string;
    pending?: boolean;
  } = {},
) {
  const who = options.who ?? (await signUp(t.app, options.name));
  const methodId = options.methodId ?? (await addPaymentMethod(t.app, who, options.method)).id;
  const created = await submitCard(t.app, who, {
    paymentMethodId: methodId,
    cardValue: options.value ?? '100',
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id, expectedPayout } = created.json() as { id: string; expectedPayout: string };
  if (!options.pending) {
    const status = options.status ?? 'completed';
    expect((await reviewCard(t.app, staff, id, { status })).statusCode).toBe(200);
  }
  return { who, id, expectedPayout, methodId };
}

/** The seller's own card `id` as their card list (GET /api/transactions) shows it. */
export async function sellersCard<T = Record<string, unknown>>(
  t: TestApp,
  who: SignedIn,
  id: string,
) {
  const list = (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json() as ({
    id: string;
  } & T)[];
  return list.find((c) => c.id === id)!;
}

/** The card's row in the payouts list (GET /api/admin/payouts), or undefined if not listed. */
export async function payoutListRow(t: TestApp, staff: SignedIn, id: string) {
  const { groups } = (await as(t.app, staff, { method: 'GET', url: '/api/admin/payouts' })).json();
  return groups
    .flatMap((g: { cards: object[] }) => g.cards)
    .find((c: { id: string }) => c.id === id) as
    | { id: string; amount: string; netted: string }
    | undefined;
}

/**
 * Staff pay an approved card by hand (POST /api/admin/payouts/mark-sent): at `amount`, or what
 * the payouts list shows it owes, under `reference` if given; asserted to be sent.
 */
export async function markSent(
  t: TestApp,
  staff: SignedIn,
  id: string,
  { amount, reference }: { amount?: string; reference?: string } = {},
) {
  const items = [{ id, amount: amount ?? (await payoutListRow(t, staff, id))!.amount }];
  const sent = await as(t.app, staff, {
    method: 'POST',
    url: '/api/admin/payouts/mark-sent',
    payload: reference ? { items, payoutReference: reference } : { items },
  });
  expect(sent.json().sent, sent.body).toHaveLength(1);
  return sent;
}

/** A new customer at verification `level` (none when 0) with a payment method of theirs. */
export async function sellerWithMethod(t: TestApp, level: number) {
  const who = await signUp(t.app);
  if (level > 0) {
    await t.database.db
      .update(users)
      .set({ verificationLevel: level })
      .where(eq(users.id, who.user.id));
  }
  const method = await addPaymentMethod(t.app, who);
  return { who, methodId: method.id };
}

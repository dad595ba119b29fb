import { describe, expect, it } from 'vitest';
import { toAccount } from '../../src/server/common/account';
import {
  type Capability,
  can,
  FORBIDDEN_ROLE,
  STAFF_ROLES,
  type StaffRole,
} from '../../src/shared/staff-roles';
import {
  as,
  reviewCard,
  type SignedIn,
  setUpTestApp,
  signInAs,
  signUp,
  submitCard,
} from './helpers';

const t = setUpTestApp();

/**
 * The access matrix (decision 076): every `/api/admin` route and the capability it needs. The
 * table of which role holds which capability is src/shared/staff-roles.ts; this list is checked
 * against the routes the app has, so a new admin route fails here until it is added.
 */
const ADMIN_ROUTE_CAPABILITIES: Record<string, Capability> = {
  'GET /api/admin/stats': 'portal.read',
  'GET /api/admin/review-summary': 'portal.read',
  'GET /api/admin/transactions': 'cards.read',
  'GET /api/admin/transactions/:id': 'cards.read',
  'GET /api/admin/transactions/:id/timeline': 'cards.read',
  'PATCH /api/admin/transactions/:id': 'cards.review',
  'POST /api/admin/transactions/:id/offer': 'cards.review',
  'POST /api/admin/transactions/:id/claim': 'cards.review',
  'DELETE /api/admin/transactions/:id/claim': 'cards.review',
  'POST /api/admin/transactions/:id/appeal/decision': 'cards.review',
  'POST /api/admin/transactions/:id/sample-review': 'cards.review',
  'GET /api/admin/instant-decisions': 'instant.read',
  'PUT /api/admin/instant-decisions': 'instant.manage',
  'GET /api/admin/users': 'users.read',
  'POST /api/admin/users/:id/suspend': 'users.standing',
  'POST /api/admin/users/:id/reinstate': 'users.standing',
  'POST /api/admin/users/:id/close': 'users.close',
  'POST /api/admin/users/:id/erase': 'users.close',
  'GET /api/admin/analytics': 'analytics',
  'GET /api/admin/analytics.csv': 'analytics',
  'POST /api/admin/users/:id/sessions/revoke': 'users.standing',
  'GET /api/admin/verifications': 'verifications',
  'GET /api/admin/verifications/:id': 'verifications',
  'POST /api/admin/verifications/:id/decision': 'verifications',
  'GET /api/admin/limits': 'verifications',
  'GET /api/admin/limits/history': 'verifications',
  'PUT /api/admin/limits/:level': 'limits.manage',
  'GET /api/admin/rates': 'rates.read',
  'GET /api/admin/rates/history': 'rates.read',
  'POST /api/admin/rates': 'rates.manage',
  'PUT /api/admin/rates/:brand': 'rates.manage',
  'GET /api/admin/chats': 'chat',
  'GET /api/admin/conversations': 'chat',
  'GET /api/admin/conversations/:userId': 'chat',
  'POST /api/admin/conversations/:userId/read': 'chat',
  'DELETE /api/admin/chats': 'chat.clear',
  'GET /api/admin/support-tickets': 'tickets',
  'GET /api/admin/support-tickets/:id': 'tickets',
  'POST /api/admin/support-tickets/:id/replies': 'tickets',
  'PATCH /api/admin/support-tickets/:id': 'tickets',
  'GET /api/admin/payouts': 'payouts',
  'GET /api/admin/payouts.csv': 'payouts',
  'POST /api/admin/payouts/mark-sent': 'payouts',
  'GET /api/admin/payout-rails': 'payouts',
  'PUT /api/admin/payout-rails/:rail': 'payouts',
  'POST /api/admin/disbursements': 'payouts',
  'GET /api/admin/disbursements': 'payouts',
  'GET /api/admin/disbursements/:id': 'payouts',
  'POST /api/admin/disbursements/:id/retry': 'payouts',
  'POST /api/admin/disbursements/:id/cancel': 'payouts',
  'POST /api/admin/ach-batches': 'payouts',
  'GET /api/admin/ach-batches/:id/file': 'payouts',
  'POST /api/admin/ach-batches/:id/settled': 'payouts',
  'POST /api/admin/ach-returns': 'payouts',
  'GET /api/admin/ach-batches': 'payouts',
  'GET /api/admin/ledger/trial-balance': 'books',
  'GET /api/admin/ledger/entries': 'books',
  'GET /api/admin/ledger/books': 'books',
  'GET /api/admin/ledger/export.csv': 'books',
  'GET /api/admin/transactions/:id/clawbacks': 'cards.read',
  'POST /api/admin/transactions/:id/clawback': 'books',
  'POST /api/admin/clawbacks/:id/write-off': 'books',
  'POST /api/admin/reconciliation/statements': 'books',
  'GET /api/admin/reconciliation/statements': 'books',
  'GET /api/admin/staff': 'staff.manage',
  'POST /api/admin/staff/invitations': 'staff.manage',
  'POST /api/admin/staff/:id/invitation': 'staff.manage',
  'PATCH /api/admin/staff/:id': 'staff.manage',
  'GET /api/admin/users/:id': 'users.read',
  'GET /api/admin/users/:id/transactions': 'users.read',
  'GET /api/admin/users/:id/payouts': 'users.read',
  'GET /api/admin/users/:id/notes': 'users.read',
  'POST /api/admin/users/:id/notes': 'users.read',
};

/** Staff sign-in itself is open to all. */
const OPEN = new Set(['POST /api/admin/signin', 'POST /api/admin/signin/verify']);

const ZERO_ID = '00000000-0000-4000-8000-000000000000';
const urlOf = (path: string) =>
  path
    .replace(':id', ZERO_ID)
    .replace(':userId', ZERO_ID)
    .replace(':brand', 'no-such-brand')
    .replace(':level', '1');

const adminRoutes = () =>
  t.app.apiRoutes.filter(
    (route) => route.split(' ')[1]!.startsWith('/api/admin') && !route.startsWith('HEAD '),
  );

describe('the access matrix', () => {
  it('names every /api/admin route', () => {
    const routes = adminRoutes().filter((route) => !OPEN.has(route));
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter((route) => !(route in ADMIN_ROUTE_CAPABILITIES));
    expect(
      missing,
      `Add each missing route to ADMIN_ROUTE_CAPABILITIES in tests/api/staff-roles.test.ts with the capability its config names (src/shared/staff-roles.ts):\n${missing.map((route) => `  '${route}': '<capability>',`).join('\n')}`,
    ).toEqual([]);
    const gone = Object.keys(ADMIN_ROUTE_CAPABILITIES).filter((route) => !routes.includes(route));
    expect(gone, 'Remove these from ADMIN_ROUTE_CAPABILITIES: the app has no such route').toEqual(
      [],
    );
  });

  it('answers each role as the table says, on every route', async () => {
    const who = Object.fromEntries(
      await Promise.all(STAFF_ROLES.map(async (role) => [role, await signInAs(t, role)] as const)),
    ) as Record<StaffRole, SignedIn>;
    const customer = await signUp(t.app);
    const wrong: string[] = [];
    // Reads first, then writes, and the owner last (DELETE /api/admin/chats clears the chats).
    const order = Object.entries(ADMIN_ROUTE_CAPABILITIES).sort(
      ([a], [b]) => Number(!a.startsWith('GET')) - Number(!b.startsWith('GET')),
    );
    for (const [route, capability] of order) {
      const [method, path] = route.split(' ') as [string, string];
      const call = (signedIn?: SignedIn) =>
        as(t.app, signedIn, {
          method: method as 'GET',
          url: urlOf(path),
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        });
      const anonymous = await call();
      if (anonymous.statusCode !== 401) wrong.push(`${route} signed out: ${anonymous.statusCode}`);
      const asCustomer = await call(customer);
      if (asCustomer.statusCode !== 403 || asCustomer.json().code === FORBIDDEN_ROLE) {
        wrong.push(`${route} as a customer: ${asCustomer.statusCode}`);
      }
      for (const role of [...STAFF_ROLES].reverse()) {
        const response = await call(who[role]);
        const refused = response.statusCode === 403 && response.json().code === FORBIDDEN_ROLE;
        if (refused === can(role, capability)) {
          wrong.push(`${route} as ${role}: ${response.statusCode} ${response.body.slice(0, 120)}`);
        }
        if (refused) expect(response.json().message).toMatch(/cannot do this/);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets a card’s edit change its payment only for a role with payouts as well (decision 107)', async () => {
    const customer = await signUp(t.app);
    const wrong: string[] = [];
    for (const role of STAFF_ROLES) {
      const card = (await submitCard(t.app, customer)).json() as { id: string };
      const owner = await signInAs(t, 'owner');
      expect((await reviewCard(t.app, owner, card.id, { status: 'processing' })).statusCode).toBe(
        200,
      );
      const response = await reviewCard(t.app, await signInAs(t, role), card.id, {
        paymentStatus: 'sent',
      });
      const allowed = can(role, 'cards.review') && can(role, 'payouts');
      const refused = response.statusCode === 403 && response.json().code === FORBIDDEN_ROLE;
      if (refused === allowed || (allowed && response.statusCode !== 200)) {
        wrong.push(`${role}: ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('GET /api/auth/user carries the staff role, and none for a customer', async () => {
    const finance = await signInAs(t, 'finance');
    const me = await as(t.app, finance, { method: 'GET', url: '/api/auth/user' });
    expect(me.json()).toMatchObject({ isAdmin: true, staffRole: 'finance' });
    const customer = await signUp(t.app);
    const them = await as(t.app, customer, { method: 'GET', url: '/api/auth/user' });
    expect(them.json().staffRole).toBeUndefined();
  });

  it('counts a customer row flagged isAdmin as an owner', () => {
    const row = { id: ZERO_ID, email: 'a@example.com', firstName: null, lastName: null };
    const account = toAccount('user', { ...row, createdAt: new Date(), isAdmin: true });
    expect(account.staffRole).toBe('owner');
    expect(can(account.staffRole, 'staff.manage')).toBe(true);
    expect(toAccount('user', { ...row, createdAt: new Date() }).staffRole).toBeUndefined();
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentMethods } from '../../src/server/db/schema';
import {
  addPaymentMethod,
  as,
  type SignedIn,
  setUpTestApp,
  signInStaff,
  signUp,
  submitCard,
} from './helpers';

const t = setUpTestApp();

const list = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/payment-methods' })).json();
const create = (who: SignedIn | undefined, payload: object) =>
  as(t.app, who, { method: 'POST', url: '/api/payment-methods', payload });
const remove = (who: SignedIn, id: string) =>
  as(t.app, who, { method: 'DELETE', url: `/api/payment-methods/${id}` });

describe('payee details checked by the server (decision 061)', () => {
  const bank = { type: 'bank_transfer', accountName: 'Casey C', bankName: 'First Bank' };
  const cases: [string, object, string, RegExp][] = [
    [
      'an ABA routing number with a wrong check digit',
      { ...bank, accountNumber: '12345678', routingNumber: '123456789' },
      'routingNumber',
      /check digit/,
    ],
    [
      'an IBAN, even a valid one with a routing number: ACH to US accounts only (decision 136)',
      { ...bank, accountNumber: 'GB82WEST12345698765432', routingNumber: '011000015' },
      'accountNumber',
      /US bank accounts only/,
    ],
    [
      'a PayPal email without a domain',
      { type: 'paypal', accountName: 'C', identifier: 'casey@' },
      'identifier',
      /PayPal email/,
    ],
    [
      'a Cash App tag that is not one',
      { type: 'cash_app', accountName: 'C', identifier: '$$casey' },
      'identifier',
      /Cash App tag/,
    ],
    [
      'a TRC-20 address with a typo',
      { type: 'usdt_trc20', accountName: 'C', identifier: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' },
      'identifier',
      /TRC20.*checksum/,
    ],
    [
      'a TRC-20 address of the right shape only',
      { type: 'usdt_trc20', accountName: 'C', identifier: `T${'A'.repeat(33)}` },
      'identifier',
      /TRC20/,
    ],
    [
      'a BEP-20 address whose capitals are not its checksum',
      {
        type: 'usdt_bep20',
        accountName: 'C',
        identifier: '0x55D398326f99059fF775485246999027B3197955',
      },
      'identifier',
      /EIP-55/,
    ],
    [
      'a BEP-20 address too short',
      {
        type: 'usdt_bep20',
        accountName: 'C',
        identifier: '0x55d398326f99059ff775485246999027b319795',
      },
      'identifier',
      /40 hex/,
    ],
  ];
  for (const [name, payload, field, message] of cases) {
    it(`refuses ${name} with 400 on ${field}`, async () => {
      const who = await signUp(t.app);
      const response = await create(who, payload);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().errors)).toEqual([field]);
      expect(response.json().errors[field]).toMatch(message);
      expect(await list(who)).toEqual([]);
    });
  }

  const valid: [string, object, object][] = [
    [
      'routing numbers with a right check digit',
      { ...bank, accountNumber: '12345678', routingNumber: '011000015' },
      { routingNumber: '011000015' },
    ],
    [
      'a Cash App tag typed without its $, kept with it (decision 136)',
      { type: 'cash_app', accountName: 'C', identifier: 'casey' },
      { identifier: '$casey' },
    ],
    [
      'a real TRC-20 address',
      { type: 'usdt_trc20', accountName: 'C', identifier: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      { identifier: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
    ],
    [
      'a checksummed BEP-20 address',
      {
        type: 'usdt_bep20',
        accountName: 'C',
        identifier: '0x55d398326f99059fF775485246999027B3197955',
      },
      { identifier: '0x55d398326f99059fF775485246999027B3197955' },
    ],
    [
      'a BEP-20 address in lower case (no checksum to check)',
      {
        type: 'usdt_bep20',
        accountName: 'C',
        identifier: '0x55d398326f99059ff775485246999027b3197955',
      },
      {},
    ],
    [
      'a PayPal email',
      { type: 'paypal', accountName: 'C', identifier: 'casey.c+pay@example.co.uk' },
      {},
    ],
  ];
  for (const [name, payload, stored] of valid) {
    it(`accepts ${name}`, async () => {
      const who = await signUp(t.app);
      const response = await create(who, payload);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject(stored);
    });
  }
});

describe('POST /api/payment-methods', () => {
  it('creates a method for the session user, ignoring a userId in the body', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const response = await create(alice, {
      type: 'cash_app',
      accountName: 'Alice A',
      identifier: '$alicea',
      userId: bob.user.id,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      type: 'cash_app',
      accountName: 'Alice A',
      identifier: '$alicea',
      accountNumber: null,
      isDefault: true,
    });
    const [row] = await t.database.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, response.json().id));
    expect(row!.userId).toBe(alice.user.id);
    expect(await list(bob)).toEqual([]);
  });

  it('answers the spec messages with 400 and writes nothing', async () => {
    const who = await signUp(t.app);
    const bank = await create(who, { type: 'bank_transfer', accountName: '' });
    expect(bank.statusCode).toBe(400);
    expect(bank.json().errors).toEqual({
      accountName: 'Account name is required',
      accountNumber: 'Account number is required for bank transfers',
      bankName: 'Bank name is required for bank transfers',
      routingNumber: 'Routing number is required for bank transfers',
    });
    const other = await create(who, { type: 'usdt_trc20', accountName: 'W' });
    expect(other.json().errors).toEqual({ identifier: 'Account identifier is required' });
    const badType = await create(who, { type: 'venmo', accountName: 'W', identifier: 'x' });
    expect(badType.json().errors.type).toBe('Payment method type is required');
    expect(await list(who)).toEqual([]);
  });

  it('keeps one default: the first method, or the one marked default', async () => {
    const who = await signUp(t.app);
    const first = await addPaymentMethod(t.app, who);
    const second = await addPaymentMethod(t.app, who, { accountName: 'Second' });
    expect(first.isDefault).toBe(true);
    expect(second.isDefault).toBe(false);
    const third = await addPaymentMethod(t.app, who, {
      type: 'bank_transfer',
      accountName: 'Third',
      accountNumber: '123456789',
      bankName: 'First Bank',
      routingNumber: '021000021',
      isDefault: true,
    });
    expect(third.isDefault).toBe(true);
    const methods = await list(who);
    expect(methods.map((m: { id: string }) => m.id)[0]).toBe(third.id);
    expect(methods.filter((m: { isDefault: boolean }) => m.isDefault)).toHaveLength(1);
    expect(methods[0]).toMatchObject({
      bankName: 'First Bank',
      routingNumber: '021000021',
      identifier: null,
    });
  });

  it('refuses staff with 403 and anonymous callers with 401', async () => {
    const staff = await signInStaff(t);
    const response = await create(staff, {
      type: 'paypal',
      accountName: 'S',
      identifier: 's@example.com',
    });
    expect(response.statusCode).toBe(403);
    expect((await create(undefined, { type: 'paypal' })).statusCode).toBe(401);
    expect(
      (await as(t.app, undefined, { method: 'GET', url: '/api/payment-methods' })).statusCode,
    ).toBe(401);
  });
});

describe('DELETE /api/payment-methods/{id}', () => {
  it('hides the method, moves the default, and keeps it for the transactions that name it', async () => {
    const who = await signUp(t.app);
    const created = await submitCard(t.app, who);
    expect(created.statusCode).toBe(201);
    const usedId = created.json().paymentMethodId;
    const other = await addPaymentMethod(t.app, who, { accountName: 'Backup' });

    const response = await remove(who, usedId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const methods = await list(who);
    expect(methods).toHaveLength(1);
    expect(methods[0]).toMatchObject({ id: other.id, isDefault: true });

    const [row] = await t.database.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, usedId));
    expect(row!.deletedAt).not.toBeNull();
    const history = (await as(t.app, who, { method: 'GET', url: '/api/transactions' })).json();
    expect(history[0]).toMatchObject({
      paymentMethodId: usedId,
      paymentMethodAccountName: 'Casey Customer',
    });

    expect((await remove(who, usedId)).statusCode).toBe(404);
  });

  it("answers 404 for another customer's method and leaves it alone", async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const method = await addPaymentMethod(t.app, owner);
    const response = await remove(intruder, method.id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Payment method not found' });
    expect(await list(owner)).toHaveLength(1);
    expect((await remove(intruder, 'not-a-uuid')).statusCode).toBe(404);
  });

  it('refuses staff', async () => {
    const owner = await signUp(t.app);
    const method = await addPaymentMethod(t.app, owner);
    expect((await remove(await signInStaff(t), method.id)).statusCode).toBe(403);
  });
});

describe('PATCH /api/payment-methods/{id}', () => {
  const edit = (who: SignedIn, id: string, payload: object) =>
    as(t.app, who, { method: 'PATCH', url: `/api/payment-methods/${id}`, payload });

  it('edits a method with the same checks as adding one', async () => {
    const who = await signUp(t.app);
    const method = await addPaymentMethod(t.app, who);
    const bad = await edit(who, method.id, { type: 'bank_transfer', accountName: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      accountName: 'Account name is required',
      accountNumber: 'Account number is required for bank transfers',
      bankName: 'Bank name is required for bank transfers',
      routingNumber: 'Routing number is required for bank transfers',
    });
    const wallet = await edit(who, method.id, {
      type: 'usdt_trc20',
      accountName: 'W',
      identifier: 'not a wallet',
    });
    expect(wallet.json().errors.identifier).toMatch(/TRC20/);

    const response = await edit(who, method.id, {
      type: 'bank_transfer',
      accountName: 'Casey C',
      accountNumber: '12345678',
      bankName: 'Second Bank',
      routingNumber: '021000021',
      identifier: 'dropped for a bank',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: method.id,
      type: 'bank_transfer',
      accountName: 'Casey C',
      identifier: null,
      bankName: 'Second Bank',
      isDefault: true,
    });
    expect(await list(who)).toEqual([response.json()]);
  });

  it('makes another method the default, and refuses to leave the customer without one', async () => {
    const who = await signUp(t.app);
    const first = await addPaymentMethod(t.app, who);
    const second = await addPaymentMethod(t.app, who, { accountName: 'Second' });
    const body = { type: 'paypal', accountName: 'Second', identifier: 'casey@example.com' };

    const unchanged = await edit(who, second.id, body);
    expect(unchanged.json().isDefault).toBe(false);
    const made = await edit(who, second.id, { ...body, isDefault: true });
    expect(made.json().isDefault).toBe(true);
    const defaults = (await list(who)).filter((m: { isDefault: boolean }) => m.isDefault);
    expect(defaults.map((m: { id: string }) => m.id)).toEqual([second.id]);

    const unset = await edit(who, second.id, { ...body, isDefault: false });
    expect(unset.statusCode).toBe(409);
    expect(unset.json().message).toMatch(/Choose another default first/);
    const kept = await edit(who, second.id, body);
    expect(kept.json().isDefault).toBe(true);
    expect((await edit(who, first.id, { ...body, isDefault: false })).json().isDefault).toBe(false);
  });

  it('keeps exactly one default when two methods are made the default at once', async () => {
    const who = await signUp(t.app);
    const ids = [];
    for (const name of ['A', 'B', 'C']) {
      ids.push((await addPaymentMethod(t.app, who, { accountName: name })).id);
    }
    const body = { type: 'paypal', identifier: 'casey@example.com', isDefault: true };
    const answers = await Promise.all([
      edit(who, ids[1]!, { ...body, accountName: 'B' }),
      edit(who, ids[2]!, { ...body, accountName: 'C' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const defaults = (await list(who)).filter((m: { isDefault: boolean }) => m.isDefault);
    expect(defaults).toHaveLength(1);
  });

  it("answers 404 for another customer's or a deleted method, 403 for staff", async () => {
    const owner = await signUp(t.app);
    const intruder = await signUp(t.app);
    const method = await addPaymentMethod(t.app, owner);
    const body = { type: 'paypal', accountName: 'Mine now', identifier: 'x@example.com' };
    const response = await edit(intruder, method.id, body);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Payment method not found' });
    expect((await list(owner))[0].accountName).toBe('Casey Customer');
    expect((await edit(intruder, 'not-a-uuid', body)).statusCode).toBe(404);
    expect((await edit(await signInStaff(t), method.id, body)).statusCode).toBe(403);
    await addPaymentMethod(t.app, owner, { accountName: 'Other' });
    await remove(owner, method.id);
    expect((await edit(owner, method.id, body)).statusCode).toBe(404);
  });
});

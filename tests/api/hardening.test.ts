import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpAppWithStaff } from './builders';
import {
  addPaymentMethod,
  as,
  CARD,
  reviewCard,
  type SignedIn,
  signUp,
  submitCard,
  uploadCardImage,
} from './helpers';

const { t, staff } = setUpAppWithStaff();
let customer: SignedIn;
beforeAll(async () => {
  customer = await signUp(t.app);
});

describe('text with control characters', () => {
  it('is refused with a 400 naming the field, in bodies, queries and paths', async () => {
    const cases: [SignedIn | undefined, string, string, object | undefined, string][] = [
      [
        undefined,
        'POST',
        '/api/signup',
        { email: 'a@b.co', password: 'long enough 1', firstName: 'A\u0000', lastName: 'B' },
        'firstName',
      ],
      [
        customer,
        'POST',
        '/api/payment-methods',
        {
          type: 'bank_transfer',
          accountName: 'Casey',
          accountNumber: '12\u00003',
          bankName: 'Bank',
          routingNumber: '021000021',
        },
        'accountNumber',
      ],
      [customer, 'POST', '/api/chat/messages', { message: 'hi\u0000' }, 'message'],
      [
        customer,
        'POST',
        '/api/support-tickets',
        { email: 'a@b.co', subject: 'Help\u0007', message: 'x' },
        'subject',
      ],
      [
        customer,
        'POST',
        '/api/transactions',
        { cardType: 'Amazon\u001b', cardValue: '100' },
        'cardType',
      ],
      [staff, 'GET', '/api/admin/transactions?search=%00', undefined, 'search'],
    ];
    for (const [who, method, url, payload, field] of cases) {
      const response = await as(t.app, who, { method: method as 'POST', url, payload });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().errors, url).toHaveProperty([field]);
      expect(response.json().message).toMatch(/contains a character that is not allowed$/);
    }
    const notes = await submitCard(t.app, customer, { notes: 'PIN on the back\u0000' });
    expect(notes.statusCode).toBe(400);
    expect(notes.json().errors).toEqual({
      notes: 'Notes contains a character that is not allowed',
    });
  });

  it('refuses a body nested too deeply with a 400, where a validation message overflowed the stack', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const payload of [`{"token":{"length":${deep}}}`, `{"token":${deep}}`]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/password/reset/check',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'The request body is nested too deeply' });
    }
    // As deep as a real body goes is still read and validated as before.
    const shallow = await t.app.inject({
      method: 'POST',
      url: '/api/password/reset/check',
      payload: { token: { length: [[['x']]] } },
    });
    expect(shallow.statusCode).toBe(400);
    expect(shallow.json().message).toBe('This link is not valid');
  });

  it('keeps line breaks and tabs in free text, not in a name', async () => {
    const message = await as(t.app, customer, {
      method: 'POST',
      url: '/api/chat/messages',
      payload: { message: 'line one\nline two\tend' },
    });
    expect(message.statusCode).toBe(201);
    expect(message.json().message).toBe('line one\nline two\tend');
    const name = await as(t.app, customer, {
      method: 'POST',
      url: '/api/payment-methods',
      payload: { type: 'paypal', accountName: 'Casey\nCustomer', identifier: 'c@example.com' },
    });
    expect(name.statusCode).toBe(400);
    expect(name.json().errors).toHaveProperty('accountName');
  });
});

describe('staff list cursors', () => {
  it('answers 400 to any cursor that is not one the server wrote', async () => {
    await submitCard(t.app, customer);
    await submitCard(t.app, customer);
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const id = '00000000-0000-4000-8000-000000000000';
    for (const cursor of [
      'garbage',
      b64('x'),
      b64([1, 2]),
      b64(['not a date', id]),
      b64(['2026-02-30 10:00:00+00', id]),
      b64(['99999-01-01 00:00:00+00', id]),
      b64(['2026-11-22 25:00:00+00', id]),
      b64(['2026-11-22 10:00:00+00', 'not-a-uuid']),
    ]) {
      for (const url of ['/api/admin/transactions', '/api/admin/users']) {
        const response = await as(t.app, staff, { method: 'GET', url: `${url}?cursor=${cursor}` });
        expect(response.statusCode, `${url} ${cursor}`).toBe(400);
        expect(response.json()).toEqual({
          message: 'Invalid cursor',
          errors: { cursor: 'Invalid cursor' },
        });
      }
    }
    const page = await as(t.app, staff, { method: 'GET', url: '/api/admin/transactions?limit=1' });
    const next = page.headers['x-next-cursor'] as string;
    expect(Buffer.from(next, 'base64url').toString()).toContain(page.json()[0].id);
    const second = await as(t.app, staff, {
      method: 'GET',
      url: `/api/admin/transactions?limit=1&cursor=${next}`,
    });
    expect(second.statusCode).toBe(200);
  });
});

describe('the Origin check', () => {
  it('compares scheme, host and port', async () => {
    const post = (origin: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { origin, host: 'localhost:5000' },
      });
    expect((await post('http://localhost:5000')).statusCode).toBe(200);
    for (const origin of ['https://localhost:5000', 'http://localhost:5001', 'http://localhost']) {
      expect((await post(origin)).statusCode, origin).toBe(403);
    }
  });
});

describe('errors of the framework and the HTTP parser', () => {
  let port: number;
  beforeAll(async () => {
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  const raw = (request: string) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
      let out = '';
      socket.on('data', (d) => {
        out += d;
      });
      socket.on('close', () => resolve(out));
      socket.on('error', () => resolve(out));
    });

  it('answer JSON with the security headers: bad encoding, a long parameter, 431, garbage', async () => {
    const cases: [string, number][] = [
      ['GET /api/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
      [
        `GET /api/transactions/${'a'.repeat(500)}/receipt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        414,
      ],
      [`GET /api/stats?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
      [`GET /api/stats HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['HELLO\r\n\r\n', 400],
    ];
    for (const [request, status] of cases) {
      const response = await raw(request);
      const [head, body] = response.split('\r\n\r\n');
      expect(head, request.slice(0, 40)).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head!.toLowerCase()).toContain('x-content-type-options: nosniff');
      expect(head!.toLowerCase()).toContain('content-security-policy:');
      expect(JSON.parse(body!)).toEqual({ message: expect.any(String) });
      expect(body).not.toContain('aaaa');
    }
  });
});

describe('payment methods created at the same moment', () => {
  it('never answer 5xx, and leave exactly one default', async () => {
    const fresh = await signUp(t.app);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        as(t.app, fresh, {
          method: 'POST',
          url: '/api/payment-methods',
          payload: { type: 'paypal', accountName: `Method ${i}`, identifier: `m${i}@example.com` },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const methods = (await as(t.app, fresh, { method: 'GET', url: '/api/payment-methods' })).json();
    expect(methods).toHaveLength(10);
    expect(methods.filter((m: { isDefault: boolean }) => m.isDefault)).toHaveLength(1);
    await addPaymentMethod(t.app, fresh, { isDefault: true });
  });
});

describe('other writes at the same moment', () => {
  it('one image claimed by several submissions: one card, the others refused, no 5xx', async () => {
    const fresh = await signUp(t.app);
    const method = await addPaymentMethod(t.app, fresh);
    const image = await uploadCardImage(t.app, fresh);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        as(t.app, fresh, {
          method: 'POST',
          url: '/api/transactions',
          payload: {
            ...CARD,
            paymentMethodId: method.id,
            imageUrls: [image],
          },
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
  });

  it('staff saving one card at the same moment: saved or 409, never 5xx', async () => {
    const card = (await submitCard(t.app, customer)).json();
    const detail = (
      await as(t.app, staff, { method: 'GET', url: `/api/admin/transactions/${card.id}` })
    ).json();
    // Every save changes the card (a save that changes nothing is not a conflict and answers 200
    // whenever it runs, so on PostgreSQL, where the order is free, it could make a second 200).
    const responses = await Promise.all(
      ['processing', 'completed', 'rejected', 'processing', 'completed', 'rejected'].map((status) =>
        reviewCard(t.app, staff, card.id, {
          status,
          ...(status === 'rejected' ? { rejectionReason: 'image_unreadable' } : {}),
          expectedUpdatedAt: detail.updatedAt,
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
  });
});

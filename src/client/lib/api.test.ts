import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, isUnauthorizedError, serverMessage } from './api';
import { isReauthRequired } from './reauth';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** What apiRequest throws for `answer`, with fetch answering it. */
async function failureOf(answer: Response): Promise<unknown> {
  vi.stubGlobal('fetch', async () => answer);
  return apiRequest('POST', '/api/transactions', {}).then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ApiError', () => {
  it('carries the status, the code and the field errors, with the spec text as message', async () => {
    const body = {
      message: 'Over your limit',
      errors: { cardValue: 'At most $500.00' },
      code: 'verification_required',
    };
    const error = await failureOf(json(403, body));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 403,
      code: 'verification_required',
      errors: { cardValue: 'At most $500.00' },
      body,
      message: `403: ${JSON.stringify(body)}`,
    });
    expect(serverMessage(error)).toBe('Over your limit');
  });

  it('reads as the status text when the body is empty, and has no code', async () => {
    const error = await failureOf(new Response(null, { status: 502, statusText: 'Bad Gateway' }));
    expect(error).toMatchObject({
      status: 502,
      code: undefined,
      body: null,
      errors: {},
      message: '502: Bad Gateway',
    });
    expect(serverMessage(error)).toBeUndefined();
  });

  it('keeps a body that is not JSON as text', async () => {
    const error = await failureOf(new Response('<html>Proxy error</html>', { status: 500 }));
    expect(error).toMatchObject({
      status: 500,
      body: null,
      message: '500: <html>Proxy error</html>',
    });
  });

  it('tells a lost session from a password asked again, both 401', async () => {
    const lost = await failureOf(json(401, { message: 'Unauthorized' }));
    const stepUp = await failureOf(
      json(401, {
        message: 'For your safety, enter your password again to change payment methods.',
        code: 'reauth_required',
      }),
    );
    expect([isUnauthorizedError(lost), isReauthRequired(lost)]).toEqual([true, false]);
    expect([isUnauthorizedError(stepUp), isReauthRequired(stepUp)]).toEqual([false, true]);
  });

  it('is not made for an answer that went through', async () => {
    expect(await failureOf(json(200, { ok: true }))).toBe('resolved');
  });
});

/**
 * Staff sign-in as the admin portal does it, for the benchmarks and the tests that talk to a
 * running server over HTTP: the password, then a code from the authenticator (enrolling it the
 * first time with the secret the server answers). A code is accepted once (decision 037), so
 * codes are handed out one time step at a time.
 */
import { codeAt } from '../../src/server/modules/auth/two-factor';

/** The last time step whose code each secret gave out. */
const lastSteps = new Map<string, number>();
/** The secrets of the staff accounts signed in (and enrolled) so far, by email. */
const secrets = new Map<string, string>();

/**
 * A code from the authenticator with `secret` the server has not seen: the current step's, or the
 * next one's (accepted for clocks that drift); when both were given out, it waits for a new step.
 */
export async function freshCode(secret: string, clock = Date.now): Promise<string> {
  for (;;) {
    const now = clock();
    const step = Math.floor(now / 30_000);
    const use = Math.max(step, (lastSteps.get(secret) ?? -1) + 1);
    if (use <= step + 1) {
      lastSteps.set(secret, use);
      return codeAt(secret, use * 30_000);
    }
    await new Promise((r) => setTimeout(r, (step + 1) * 30_000 - now + 10));
  }
}

/** The last time step whose code was given out for `secret`, if any. */
export const lastStepOf = (secret: string) => lastSteps.get(secret);

export function rememberSecret(email: string, secret: string) {
  secrets.set(email, secret);
}

export function secretOf(email: string): string | undefined {
  return secrets.get(email);
}

/** Signs staff in at `base`; answers the session cookie (`cb.sid=...`) and the account's secret. */
export async function signInStaffOverHttp(
  base: string,
  staff: { email: string; password: string },
): Promise<{ cookie: string; secret: string }> {
  const headers = { 'content-type': 'application/json', origin: base };
  const first = await fetch(`${base}/api/admin/signin`, {
    method: 'POST',
    headers,
    body: JSON.stringify(staff),
  });
  if (first.status !== 200) throw new Error(`staff sign-in: ${first.status} ${await first.text()}`);
  const challenge = (await first.json()) as { secret?: string };
  if (challenge.secret) secrets.set(staff.email, challenge.secret);
  const secret = secrets.get(staff.email);
  if (!secret) throw new Error(`no authenticator secret known for ${staff.email}`);
  const pending = first.headers.getSetCookie()[0]!.split(';')[0]!;
  const second = await fetch(`${base}/api/admin/signin/verify`, {
    method: 'POST',
    headers: { ...headers, cookie: pending },
    body: JSON.stringify({ code: await freshCode(secret) }),
  });
  if (second.status !== 200) {
    throw new Error(`staff second factor: ${second.status} ${await second.text()}`);
  }
  return { cookie: second.headers.getSetCookie()[0]!.split(';')[0]!, secret };
}

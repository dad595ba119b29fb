import type { FastifyReply } from 'fastify';
import type { Principal } from '../../common/account';
import type { Limits } from '../../config';
import { countAttempt, type DatabaseCounters, MINUTE, tooMany } from '../../plugins/rate-limit';

const ADDRESS_WINDOW_MS = 15 * MINUTE;
const ACCOUNT_WINDOW_MS = 60 * MINUTE;

const FROM_ADDRESS = 'Too many failed sign-in attempts from your network.';
export const ACCOUNT_LOCKED =
  'Too many failed sign-in attempts for this account. If it is yours, we have emailed you a link to sign in.';

/**
 * Guessing passwords (docs/decisions/004). Each attempt is counted before its password is
 * checked, per client network and per account (the email typed, whether or not an account has
 * it, so unknown emails get the same answers); a right password gives its counts back, so only
 * failures count:
 * - per network: past `signinFailuresPerAddress` in 15 minutes it is refused, unheard;
 * - per account: past `signinFailuresPerAccount` in an hour the account is locked: no password
 *   is checked for it from anywhere until the hour ends, and `onLocked` mails its owner a
 *   one-time sign-in link, so an attacker cannot lock the owner out.
 */
export class SignInThrottle {
  constructor(
    private readonly counters: DatabaseCounters,
    private readonly limits: Limits,
    private readonly onLocked: (kind: Principal['kind'], email: string) => void,
  ) {}

  /**
   * Before the password is checked: throws 429 when this attempt is not to be heard. Answers the
   * function to call when the password was right.
   */
  async admit(reply: FastifyReply, kind: Principal['kind'], email: string, network: string) {
    const byNetwork = await countAttempt(this.counters, reply, {
      key: `signin-address:${network}`,
      max: this.limits.signinFailuresPerAddress,
      windowMs: ADDRESS_WINDOW_MS,
      refusal: FROM_ADDRESS,
    });
    const byAccount = await this.admitAccount(reply, kind, email);
    return async () => {
      await Promise.all([byNetwork(), byAccount()]);
    };
  }

  /**
   * The per-account count alone: for the password given again in a signed-in session (step-up,
   * decision 101), which counts with the account's sign-in failures and locks it as they do.
   */
  async admitAccount(reply: FastifyReply, kind: Principal['kind'], email: string) {
    const accountKey = `signin-account:${kind}:${email}`;
    const byAccount = await this.counters.hit(accountKey, ACCOUNT_WINDOW_MS);
    if (byAccount.current > this.limits.signinFailuresPerAccount) {
      this.onLocked(kind, email);
      throw tooMany(reply, byAccount.ttl, ACCOUNT_LOCKED);
    }
    return () => this.counters.release(accountKey);
  }
}

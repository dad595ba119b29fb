import type { FastifyReply } from 'fastify';
import type { Limits } from '../../config';
import { type DatabaseCounters, tooMany } from '../../plugins/rate-limit';
import type { Principal } from '../../plugins/session';

const ADDRESS_WINDOW_MS = 15 * 60 * 1000;
const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;

const FROM_ADDRESS = 'Too many failed sign-in attempts from your network.';
const FOR_ACCOUNT = 'Too many failed sign-in attempts for this account.';

/**
 * Guessing passwords (docs/decisions/004). Only wrong passwords count, in the database:
 * - per address: after `signinFailuresPerAddress` in 15 minutes it is refused, unheard;
 * - per account (the email typed, whether or not it exists, so unknown emails get the same
 *   answers): after `signinFailuresPerAccount` in an hour every further wrong password is
 *   refused with 429, and an address that has failed on it is refused unheard. An address that
 *   has not failed is still heard: the owner with the right password gets in, whatever others
 *   tried.
 */
export class SignInThrottle {
  constructor(
    private readonly counters: DatabaseCounters,
    private readonly limits: Limits,
  ) {}

  private keys(kind: Principal['kind'], email: string, address: string) {
    return {
      address: `signin-address:${address}`,
      account: `signin-account:${kind}:${email}`,
      pair: `signin-pair:${kind}:${email}:${address}`,
    };
  }

  /** Before the password is checked: throws 429 when this attempt is not to be heard. */
  async check(reply: FastifyReply, kind: Principal['kind'], email: string, address: string) {
    const keys = this.keys(kind, email, address);
    const [byAddress, byAccount, byPair] = await this.counters.peekMany([
      keys.address,
      keys.account,
      keys.pair,
    ]);
    if (byAddress!.current >= this.limits.signinFailuresPerAddress) {
      throw tooMany(reply, byAddress!.ttl, FROM_ADDRESS);
    }
    const accountLocked = byAccount!.current >= this.limits.signinFailuresPerAccount;
    if (accountLocked && byPair!.current > 0) throw tooMany(reply, byAccount!.ttl, FOR_ACCOUNT);
    return { accountLocked };
  }

  /** A wrong password: counted everywhere; past the account's limit it is answered 429. */
  async failed(
    reply: FastifyReply,
    kind: Principal['kind'],
    email: string,
    address: string,
    { accountLocked }: { accountLocked: boolean },
  ) {
    const keys = this.keys(kind, email, address);
    const [, byAccount] = await Promise.all([
      this.counters.hit(keys.address, ADDRESS_WINDOW_MS),
      this.counters.hit(keys.account, ACCOUNT_WINDOW_MS),
      this.counters.hit(keys.pair, ACCOUNT_WINDOW_MS),
    ]);
    if (accountLocked) throw tooMany(reply, byAccount.ttl, FOR_ACCOUNT);
  }
}

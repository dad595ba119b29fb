import { describe, expect, it } from 'vitest';
import { setUpAppWithMail } from './builders';
import { as, type SignedIn, signUp, uniqueEmail } from './helpers';
import { TEST_APP_URL } from './mail-server';

const { mail, t, staff } = setUpAppWithMail();
const PASSWORD = 'correct horse battery';

const change = (who: SignedIn | undefined, payload: object) =>
  as(t.app, who, { method: 'POST', url: '/api/account/email', payload });
const me = async (who: SignedIn) =>
  (await as(t.app, who, { method: 'GET', url: '/api/auth/user' })).json();
const confirm = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/email/verify', payload: { token } });
const tokenIn = (text: string) =>
  decodeURIComponent(text.match(new RegExp(`${TEST_APP_URL}/verify-email\\?token=(\\S+)`))![1]!);

describe('changing the account email (issue 22, item 3)', () => {
  it('re-verifies the new address before switching, then tells the old one', async () => {
    const oldEmail = uniqueEmail();
    const customer = await signUp(t.app, { email: oldEmail });
    const newEmail = uniqueEmail('moved');

    const asked = await change(customer, {
      email: ` ${newEmail.toUpperCase()} `,
      password: PASSWORD,
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().message).toContain(newEmail);
    // Nothing changes until the new address answers.
    expect((await me(customer)).email).toBe(oldEmail);
    const link = await mail.waitFor(newEmail, /Confirm your new Cardbridge email address/);
    expect(mail.to(oldEmail).some((m) => /email address was changed/.test(m.subject))).toBe(false);

    const confirmed = await confirm(tokenIn(link.text));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await me(customer);
    expect(after.email).toBe(newEmail);
    expect(after.emailVerified).toBe(true);
    const told = await mail.waitFor(oldEmail, /Your Cardbridge email address was changed/);
    expect(told.text).toContain(newEmail);
    // The link works once; sign-in now takes the new address only.
    expect((await confirm(tokenIn(link.text))).statusCode).toBe(400);
    const signIn = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/signin', payload: { email, password: PASSWORD } });
    expect((await signIn(newEmail)).statusCode).toBe(200);
    expect((await signIn(oldEmail)).statusCode).toBe(401);
  });

  it('needs the password, a new and free address, and a customer', async () => {
    const customer = await signUp(t.app);
    const other = await signUp(t.app);
    const wrong = await change(customer, { email: uniqueEmail(), password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ password: 'Password is incorrect' });
    const same = await change(customer, { email: customer.user.email, password: PASSWORD });
    expect(same.statusCode).toBe(400);
    expect(same.json().errors.email).toBe('This is already your email address');
    const taken = await change(customer, { email: other.user.email, password: PASSWORD });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('An account with this email already exists');
    const invalid = await change(customer, { email: 'not an email', password: PASSWORD });
    expect(invalid.statusCode).toBe(400);
    expect((await change(undefined, { email: uniqueEmail(), password: PASSWORD })).statusCode).toBe(
      401,
    );
    expect((await change(staff, { email: uniqueEmail(), password: PASSWORD })).statusCode).toBe(
      403,
    );
  });

  it('refuses the switch when another account took the address after the link was sent', async () => {
    const customer = await signUp(t.app);
    const wanted = uniqueEmail('wanted');
    expect((await change(customer, { email: wanted, password: PASSWORD })).statusCode).toBe(202);
    const link = await mail.waitFor(wanted, /Confirm your new/);
    await signUp(t.app, { email: wanted });
    const confirmed = await confirm(tokenIn(link.text));
    expect(confirmed.statusCode).toBe(409);
    expect((await me(customer)).email).toBe(customer.user.email);
  });

  it('mails a few links an hour at most, however many requests come at once', async () => {
    const customer = await signUp(t.app);
    const most = t.config.limits.accountEmailsPerHour;
    const answers = await Promise.all(
      Array.from({ length: most + 3 }, () =>
        change(customer, { email: uniqueEmail('bulk'), password: PASSWORD }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 202)).toHaveLength(most);
    expect(codes.filter((c) => c === 429)).toHaveLength(3);
  });

  it('counts wrong passwords sent all at once, with the password change', async () => {
    const customer = await signUp(t.app);
    const answers = await Promise.all(
      Array.from({ length: 14 }, () =>
        change(customer, { email: uniqueEmail(), password: 'guess' }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 400)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(4);
  });
});

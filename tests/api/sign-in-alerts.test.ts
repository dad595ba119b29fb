import { describe, expect, it } from 'vitest';
import { deviceName } from '../../src/server/modules/auth/commands';
import { setUpTestApp, signUp, uniqueEmail } from './helpers';
import { setUpMailServer } from './mail-server';

const mail = setUpMailServer();
const t = setUpTestApp(() => mail.appConfig());
const PASSWORD = 'correct horse battery';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const signIn = (email: string, userAgent: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/signin',
    payload: { email, password: PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress,
  });

const alerts = (email: string) => mail.to(email).filter((m) => /New sign-in/.test(m.subject));

describe('sign-in alerts', () => {
  it('emails a sign-in from a browser and address the account has not used, naming them, once', async () => {
    const email = uniqueEmail();
    await signUp(t.app, { email, password: PASSWORD });
    // The browser it signed up from is known: no alert.
    expect((await signIn(email, 'lightMyRequest')).statusCode).toBe(200);
    await t.app.mail.deliverDue();
    expect(alerts(email)).toHaveLength(0);

    expect((await signIn(email, FIREFOX, '203.0.113.7')).statusCode).toBe(200);
    await t.app.mail.deliverDue();
    const alert = await mail.waitFor(email, /New sign-in/);
    expect(alert.text).toContain('Firefox on Windows');
    expect(alert.text).toContain('203.0.113.7');
    expect(alert.text).toMatch(/Time: [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} [AP]M UTC/);

    // The same browser and address again: known now.
    await signIn(email, FIREFOX, '203.0.113.7');
    // The same browser from another address is new.
    await signIn(email, FIREFOX, '198.51.100.20');
    await t.app.mail.deliverDue();
    await new Promise((r) => setTimeout(r, 200));
    expect(alerts(email)).toHaveLength(2);
  });

  it('names browsers plainly', () => {
    expect(deviceName(FIREFOX)).toBe('Firefox on Windows');
    expect(deviceName(SAFARI)).toBe('Safari on iOS');
    expect(deviceName(undefined)).toBe('An unknown browser');
  });
});

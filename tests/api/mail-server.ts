import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../scripts/lib/free-port';
import type { AppConfig } from '../../src/server/config';

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The first link to the site in the text body. */
  link: string | undefined;
  raw: ParsedMail;
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps what it receives, for
 * tests that follow an email to its link. It can refuse mail for a while, as a server that is down
 * or full would.
 */
export async function startMailServer(options: { user?: string; pass?: string } = {}) {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let refusing = false;
  const server = new SMTPServer({
    disabledCommands: options.user ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.user,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(_address, _session, callback) {
      if (refusing) {
        const error = new Error('Mailbox unavailable, try again later') as Error & {
          responseCode: number;
        };
        error.responseCode = 451;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const text = mail.text ?? '';
          received.push({
            to: [mail.to]
              .flat()
              .map((a) => a?.text ?? '')
              .join(', '),
            from: mail.from?.text ?? '',
            subject: mail.subject ?? '',
            text,
            html: typeof mail.html === 'string' ? mail.html : '',
            link: text.match(/https?:\/\/\S+/)?.[0],
            raw: mail,
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const auth = options.user ? `${options.user}:${options.pass}@` : '';

  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    received,
    /** Refuses every recipient (451) until set back to false. */
    refuse(value: boolean) {
      refusing = value;
    },
    /** The first message to `to` matching `subject` that arrives (or has), within `timeoutMs`. */
    async waitFor(to: string, subject: RegExp = /./, timeoutMs = 5000): Promise<ReceivedMail> {
      const find = () => received.find((m) => m.to.includes(to) && subject.test(m.subject));
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find();
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new Error(
            `no mail to ${to} matching ${subject} in ${timeoutMs} ms; got: ${received.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'nothing'}`,
          );
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    /** Every message sent to `to` so far. */
    to: (to: string) => received.filter((m) => m.to.includes(to)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MailServer = Awaited<ReturnType<typeof startMailServer>>;

/** The site's address in the emails of tests that follow a link. */
export const TEST_APP_URL = 'http://cardbridge.test';

/**
 * A mail server for the test file, started before its tests and closed after them, and the app
 * configuration that sends to it: `const mail = setUpMailServer()`, then
 * `setUpTestApp(() => mail.appConfig())`.
 */
export function setUpMailServer(
  options: Parameters<typeof startMailServer>[0] & { notificationDelayMs?: number } = {},
) {
  const { notificationDelayMs = 0, ...serverOptions } = options;
  const mail = {} as MailServer & { appConfig(): Partial<AppConfig> };
  beforeAll(async () => {
    Object.assign(mail, await startMailServer(serverOptions), {
      appConfig: () => ({
        appUrl: TEST_APP_URL,
        mail: {
          smtpUrl: mail.url,
          from: 'Cardbridge <no-reply@cardbridge.test>',
          notificationDelayMs,
        },
      }),
    });
  });
  afterAll(() => mail.close());
  return mail;
}

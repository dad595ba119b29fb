import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../../scripts/lib/free-port';

export interface SunkMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: number;
}

/**
 * A real SMTP server on 127.0.0.1 for the browser tests' server to send through: each message it
 * receives is written to `dir` as JSON, where the tests (in other processes) read it.
 */
export async function startMailSink(dir: string) {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const sunk: SunkMail = {
            to: [mail.to]
              .flat()
              .map((a) => a?.text ?? '')
              .join(', '),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            receivedAt: Date.now(),
          };
          // Written aside, then renamed: a test in another process never reads half a message.
          const file = path.join(dir, `${String(++count).padStart(5, '0')}.json`);
          writeFileSync(`${file}.tmp`, JSON.stringify(sunk));
          renameSync(`${file}.tmp`, file);
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The messages in `dir` so far, oldest first. */
export function sunkMail(dir: string): SunkMail[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as SunkMail);
}

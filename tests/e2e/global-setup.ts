import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/free-port';
import { serverArgs } from '../../scripts/server-command';
import { lastStepOf, signInStaffOverHttp } from '../../scripts/staff-sign-in';
import { startMailSink } from './mail-sink';

export interface StaffAccount {
  email: string;
  password: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The staff account the server printed at its first start, enrolled here. */
    staff: StaffAccount & { secret: string };
    /** A signed-in session of that account the tests share (`cb.sid=...`). */
    staffCookie: string;
    /** A second staff account that has not set up its authenticator yet (accounts.e2e.ts). */
    newStaff: StaffAccount;
    /** One that never does: the accessibility checks look at the set-up screen with it. */
    unenrolledStaff: StaffAccount;
    /** Where the mail the server sends lands, one JSON file a message. */
    mailDir: string;
    /** The last authenticator time step used, shared by the test files (a code is good once). */
    codeStepFile: string;
  }
}

const NEW_STAFF: StaffAccount = {
  email: 'new.staff@example.com',
  password: 'new staff passphrase 1',
};
const UNENROLLED_STAFF: StaffAccount = {
  email: 'unenrolled.staff@example.com',
  password: 'unenrolled staff passphrase 1',
};

/**
 * Starts the built server on a fresh embedded database, as a newcomer's first start would, and
 * reads the staff account it prints once. Then (server stopped, as the command asks) a second
 * staff account is added with `admin:create`, and the server starts again for the tests, sending
 * mail through a real SMTP server started here.
 */
export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cb-e2e-'));
  const mailDir = path.join(dataDir, 'mail-received');
  const mail = await startMailSink(mailDir);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    APP_URL: baseURL,
    SMTP_URL: mail.url,
    NOTIFICATION_EMAIL_DELAY_SECONDS: '1',
    // Every browser test signs up from 127.0.0.1; the limits have API tests of their own.
    LIMIT_SIGNUPS_PER_ADDRESS: '100000',
    LIMIT_SIGNIN_FAILURES_PER_ADDRESS: '100000',
    LIMIT_CHAT_MESSAGES_PER_MINUTE: '100000',
    LIMIT_UPLOADS_PER_HOUR: '100000',
    LIMIT_TICKETS_PER_HOUR: '100000',
    // Browser tests pay cards of accounts made a minute before: payout holds (decision 072) have
    // API tests of their own (payout-holds.test.ts).
    PAYOUT_HOLD_NEW_METHOD_HOURS: '0',
    PAYOUT_HOLD_NEW_ACCOUNT_HOURS: '0',
  };

  const first = await startServer(env, baseURL);
  const printed = first.output.match(/email:\s+(\S+)[\s\S]*?password:\s+(\S+)/);
  if (!printed) throw new Error(`the first start printed no staff account:\n${first.output}`);
  await stopServer(first.server);
  for (const account of [NEW_STAFF, UNENROLLED_STAFF]) {
    execFileSync(
      process.execPath,
      ['dist/server/admin-create.js', '--email', account.email, '--password', account.password],
      { env, stdio: 'pipe' },
    );
  }
  const { server } = await startServer(env, baseURL);

  const staff = { email: printed[1]!, password: printed[2]! };
  const { cookie, secret } = await signInStaffOverHttp(baseURL, staff);
  const codeStepFile = path.join(dataDir, 'code-steps.json');
  writeFileSync(codeStepFile, JSON.stringify({ [secret]: lastStepOf(secret) }));

  project.provide('baseURL', baseURL);
  project.provide('staff', { ...staff, secret });
  project.provide('staffCookie', cookie);
  project.provide('newStaff', NEW_STAFF);
  project.provide('unenrolledStaff', UNENROLLED_STAFF);
  project.provide('mailDir', mailDir);
  project.provide('codeStepFile', codeStepFile);

  return async () => {
    await stopServer(server);
    await mail.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/** Starts the built server with `env` and waits until it answers (verification.e2e.ts starts one too). */
export async function startServer(env: NodeJS.ProcessEnv, baseURL: string) {
  // As `npm start` runs it (its node flags included).
  const server: ChildProcess = spawn(process.execPath, serverArgs(), {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`))),
  );
  const ready = (async () => {
    for (let i = 0; i < 300; i++) {
      try {
        if ((await fetch(`${baseURL}/api/auth/user`)).status === 401) return;
      } catch {}
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not start:\n${output}`);
  })();
  await Promise.race([ready, exited]);
  exited.catch(() => {});
  return { server, output };
}

export async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null) return;
  server.removeAllListeners('exit');
  const done = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await done;
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/lib/free-port';
import { startBuiltServer } from '../../scripts/lib/processes';
import { lastStepOf, signInStaffOverHttp } from '../../scripts/lib/staff-sign-in';
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
    /**
     * A self-signed certificate for 127.0.0.1 the server trusts for webhooks (WEBHOOK_CA_FILE):
     * a browser test's HTTPS receiver serves with it (partner-api.e2e.ts).
     */
    webhookTls: { key: string; cert: string };
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
  const tls = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    days: 2,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as never);
  const webhookCa = path.join(dataDir, 'webhook-ca.pem');
  writeFileSync(webhookCa, tls.cert);
  const env = {
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
    // Webhooks to a receiver on 127.0.0.1 that a browser test starts (never in production).
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CA_FILE: webhookCa,
  };

  // As `npm start` runs it (its node flags included), on the same port both times.
  const first = await startBuiltServer(env, { port });
  const printed = first.output().match(/email:\s+(\S+)[\s\S]*?password:\s+(\S+)/);
  if (!printed) throw new Error(`the first start printed no staff account:\n${first.output()}`);
  await first.stop();
  for (const account of [NEW_STAFF, UNENROLLED_STAFF]) {
    execFileSync(
      process.execPath,
      ['dist/server/admin-create.js', '--email', account.email, '--password', account.password],
      { env: { ...process.env, ...env }, stdio: 'pipe' },
    );
  }
  const server = await startBuiltServer(env, { port });

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
  project.provide('webhookTls', { key: tls.private, cert: tls.cert });

  return async () => {
    await server.stop();
    await mail.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

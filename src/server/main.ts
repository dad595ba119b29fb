import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ensureFirstStaffAccount } from './bootstrap';
import { countAdmins } from './common/accounts';
import { deleteExpiredTokens } from './common/tokens';
import { ConfigError, loadConfig } from './config';
import { DatabaseLockedError, openDatabase } from './db/client';
import { everyPeriod } from './jobs';
import { LiveHub } from './live/hub';
import { startPgBridge } from './live/pg-bridge';
import { foldAnalytics } from './modules/analytics';
import { sealTwoFactorSecrets } from './modules/auth';
import { expireOffers } from './modules/cards';
import {
  applyRetention,
  deleteOrphanUploads,
  deleteUnrecordedFiles,
  resealDocuments,
} from './modules/files';
import { checkBooks, foldLedgerDays } from './modules/ledger';
import { DIGEST_PERIOD_MS, sendWeeklyDigests } from './modules/notifications';
import { payEvmPayouts, queueAutomaticPayouts } from './modules/payouts';
import { buildExports, privacyUpkeep } from './modules/privacy';
import { deleteExpiredSessions } from './modules/sessions';
import { deleteExpiredVerificationDocuments } from './modules/verification';
import { loggableError } from './plugins/errors';
import { deleteExpiredIdempotencyKeys } from './plugins/idempotency';
import { warmUp } from './warm-up';

const here = path.dirname(fileURLToPath(import.meta.url));
/** How long after its start an instance sweeps what a crash may have left. */
const START_SWEEP_DELAY_MS = 60 * 1000;
/** How often each instance queues the payouts of rails on automatic payout (issue 40). */
const PAYOUT_QUEUE_MS = 5 * 1000;

async function main() {
  const config = { ...loadConfig(), clientDir: path.resolve(here, '..', 'client') };
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    pgliteDir: path.join(config.dataDir, 'db'),
  });
  await database.migrate();
  // Secrets stored in clear before decision 074 are sealed once (SQL cannot seal them).
  const sealed = await sealTwoFactorSecrets(database.db, config.encryption, { onlyClear: true });
  if (sealed > 0) console.log(`Sealed ${sealed} two-factor secret(s) stored in clear.`);

  const staff = await ensureFirstStaffAccount(database, config.bcryptCost);
  if (staff) {
    console.log(
      [
        '',
        'First start: a staff account was created for the admin portal (/admin/login).',
        `  email:    ${staff.email}`,
        `  password: ${staff.password}`,
        'This is shown only once. Change it with: npm run admin:create -- --email E --password P',
        '',
      ].join('\n'),
    );
  } else if (database.kind === 'postgres' && (await countAdmins(database.db)) === 0) {
    console.log(
      [
        '',
        'No staff account yet: the admin portal (/admin/login) has no one who can sign in.',
        'Create the first one on this database (same DATABASE_URL), then sign in:',
        "  npm run admin:create -- --email you@example.com --password 'a long passphrase'",
        '',
      ].join('\n'),
    );
  }

  const live = new LiveHub();
  const app = await buildApp(config, database, { live });
  // Identity documents stored in clear before they were sealed: sealed once, in the background.
  resealDocuments(database.db, app.storage, config.encryption, { onlyClear: true })
    .then((count) => count > 0 && app.log.info({ count }, 'identity documents sealed'))
    .catch((err: unknown) =>
      app.log.warn({ err: loggableError(err) }, 'sealing identity documents failed'),
    );
  // Instances on one PostgreSQL tell each other what changed; the embedded database has one.
  const bridge =
    database.kind === 'postgres' && config.databaseUrl
      ? await startPgBridge(live, database.pool, config.databaseUrl, app.log)
      : null;
  // Housekeeping at start and hourly: expired sessions, rate-limit windows and email links,
  // mail sent a month ago, files never used (card images no card claimed, chat attachments never
  // sent, identity documents never submitted), files a crash left without a row, and identity
  // documents past VERIFICATION_DOCUMENT_RETENTION_DAYS.
  const housekeeping = async () => {
    const sessions = await app.run(deleteExpiredSessions);
    const unused = await deleteOrphanUploads(database.db, app.storage);
    const unrecorded = await deleteUnrecordedFiles(database.db, app.storage);
    const limits = await app.counters.deleteExpired();
    const idempotency = await deleteExpiredIdempotencyKeys(app);
    const tokens = await deleteExpiredTokens(database.db, app.now());
    const mails = await app.mail.deleteOld();
    // Identity documents past their retention (decision 072); the decisions stay.
    const documents = await app.run(deleteExpiredVerificationDocuments);
    if (sessions + unused + unrecorded + limits + idempotency + tokens + mails + documents > 0) {
      app.log.info(
        { sessions, unused, unrecorded, limits, idempotency, tokens, mails, documents },
        'housekeeping removed expired and orphaned data',
      );
    }
  };
  const housekeepingFailed = (err: unknown) =>
    app.log.warn({ err: loggableError(err) }, 'housekeeping failed');
  // Each instance sweeps what a crash of its own may have left a minute after its start (not
  // during the first requests after a restart, which it slowed: decision 089); after that the
  // hourly run happens once per hour across all instances on the database.
  const startSweep = setTimeout(
    () => housekeeping().catch(housekeepingFailed),
    START_SWEEP_DELAY_MS,
  );
  startSweep.unref();
  const stopHousekeeping = everyPeriod(
    database,
    'housekeeping',
    60 * 60 * 1000,
    housekeeping,
    housekeepingFailed,
  );

  // Revised offers not answered in time (decision 073): checked every minute, by one instance.
  const stopOfferExpiry = everyPeriod(
    database,
    'offer-expiry',
    60 * 1000,
    async () => {
      const expired = await app.run(expireOffers);
      if (expired > 0) app.log.info({ expired }, 'revised offers expired');
    },
    (err) => app.log.warn({ err: loggableError(err) }, 'offer expiry failed'),
  );
  // Retention (issue 22): once a day across all instances, card photos and chat files past their
  // time are deleted from storage (RETAIN_CARD_IMAGES_DAYS, RETAIN_CHAT_FILES_DAYS).
  const stopRetention = everyPeriod(
    database,
    'retention',
    24 * 60 * 60 * 1000,
    async () => {
      const removed = await applyRetention(app);
      if (removed.cardImages + removed.chatFiles > 0) {
        app.log.info(removed, 'retention removed files past their time');
      }
    },
    (err: unknown) => app.log.warn({ err: loggableError(err) }, 'retention failed'),
  );

  // Privacy (issue 22): each instance builds waiting exports (each taken by one of them), and
  // once a minute across instances lapsed exports are deleted and settled deletions done.
  const privacyTimer = setInterval(() => {
    buildExports(app).catch((err: unknown) =>
      app.log.warn({ err: loggableError(err) }, 'data exports failed'),
    );
  }, 60 * 1000);
  privacyTimer.unref();
  const stopPrivacy = everyPeriod(
    database,
    'privacy',
    60 * 1000,
    () => privacyUpkeep(app),
    (err: unknown) => app.log.warn({ err: loggableError(err) }, 'privacy upkeep failed'),
  );

  // The Analytics rollups' appended rows folded into one per key (decision 085): every minute,
  // by one instance.
  const stopAnalyticsFold = everyPeriod(
    database,
    'analytics-fold',
    60 * 1000,
    () => foldAnalytics(database.db),
    (err: unknown) => app.log.warn({ err: loggableError(err) }, 'analytics fold failed'),
  );

  // The books (issue 39): their days folded every minute, and checked against the cards once a
  // day; a mismatch is emailed to finance and owners.
  const stopLedgerFold = everyPeriod(
    database,
    'ledger-fold',
    60 * 1000,
    () => foldLedgerDays(database.db),
    (err: unknown) => app.log.warn({ err: loggableError(err) }, 'ledger fold failed'),
  );
  const stopLedgerCheck = everyPeriod(
    database,
    'ledger-check',
    24 * 60 * 60 * 1000,
    async () => {
      const mismatches = await app.run(checkBooks);
      if (mismatches.length > 0) {
        app.log.error({ mismatches: mismatches.length }, 'the books do not match the cards');
      }
    },
    (err: unknown) => app.log.warn({ err: loggableError(err) }, 'ledger check failed'),
  );

  // Automatic payout (issue 40): on each instance, every few seconds, approved cards on a rail
  // whose automatic payout is on are queued (their card rows are the locks, so two instances
  // never queue one card twice), and the USDT rail's worker pays and watches them. A pass that
  // changed something is followed at once by another (a queue of a thousand is not paid twenty
  // per tick); one that changed nothing waits for the next tick.
  let paying = false;
  const payoutsPass = async () => {
    for (let round = 0; round < 100 && !closing; round++) {
      const queued = await app.run(queueAutomaticPayouts);
      // The USDT rail's worker (decision 123): one alert per outage or shortage across the
      // instances, mailed to finance (decision 153), not one per payout or per pass.
      const paid = await app.run((context) =>
        payEvmPayouts(context, (what, message) => app.log.error({ alert: what }, message)),
      );
      if (queued === 0 && paid === 0) return;
    }
  };
  const payoutTimer = setInterval(() => {
    if (paying) return;
    paying = true;
    payoutsPass()
      .catch((err: unknown) => app.log.warn({ err: loggableError(err) }, 'payouts worker failed'))
      .finally(() => {
        paying = false;
      });
  }, PAYOUT_QUEUE_MS);
  payoutTimer.unref();

  // The webhook outbox (decision 127): each instance claims due deliveries every second.
  app.webhooks.start();

  // The weekly digest (issue 22): once a week across all instances, to customers who keep it on.
  const stopDigests = everyPeriod(
    database,
    'weekly-digest',
    DIGEST_PERIOD_MS,
    async () => {
      const sent = await sendWeeklyDigests(app);
      if (sent > 0) app.log.info({ sent }, 'weekly digests queued');
    },
    (err: unknown) => app.log.warn({ err: loggableError(err) }, 'weekly digests failed'),
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received, shutting down`);
    app.draining = true;
    clearTimeout(startSweep);
    stopHousekeeping();
    stopOfferExpiry();
    stopRetention();
    stopDigests();
    stopAnalyticsFold();
    stopLedgerFold();
    stopLedgerCheck();
    clearInterval(privacyTimer);
    clearInterval(payoutTimer);
    stopPrivacy();
    await app.close();
    await bridge?.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // Best effort: a start that would serve without it (a pool larger than the database allows,
  // say) is not stopped by it.
  try {
    const ms = await warmUp(app, database);
    app.log.info({ ms: Math.round(ms) }, 'database connections and first reads warmed');
  } catch (err) {
    app.log.warn({ err: loggableError(err) }, 'warming up failed; serving cold');
  }
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});

import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES } from '../shared/card-rules';
import type { AppConfig } from './config';
import type { Database, Db } from './db/client';
import eventRoutes from './live/events';
import { LiveHub } from './live/hub';
import { registerLiveCache } from './live/plugin';
import { registerMail } from './mail/plugin';
import accountRoutes from './modules/account/routes';
import adminRoutes from './modules/admin/routes';
import analyticsRoutes from './modules/analytics/routes';
import { apiKeyRoutes } from './modules/api-keys';
import authRoutes from './modules/auth/routes';
import cardRoutes from './modules/cards/routes';
import chatRoutes from './modules/chat/routes';
import fileRoutes from './modules/files/routes';
import ledgerRoutes from './modules/ledger/routes';
import notificationRoutes from './modules/notifications/routes';
import partnerRoutes from './modules/partner/routes';
import passwordRoutes from './modules/password/routes';
import paymentMethodRoutes from './modules/payment-methods/routes';
import payoutRoutes from './modules/payouts/routes';
import privacyRoutes from './modules/privacy/routes';
import rateRoutes from './modules/rates/routes';
import reconciliationRoutes from './modules/reconciliation/routes';
import reviewTimeRoutes from './modules/review-times/routes';
import {
  createSession,
  endSessions,
  readSessions,
  reauthAtOf,
  renewSessions,
  sessionRoutes,
} from './modules/sessions';
import staffRoutes from './modules/staff/routes';
import supportRoutes from './modules/support/routes';
import verificationRoutes from './modules/verification/routes';
import { WebhookSender, webhookRoutes } from './modules/webhooks';
import { registerStaffGuard } from './plugins/auth';
import { registerClient } from './plugins/client';
import { registerApiDocs } from './plugins/docs';
import {
  clientErrorHandler,
  frameworkErrors,
  refuseExpectation,
  registerErrorHandling,
} from './plugins/errors';
import healthRoutes from './plugins/health';
import { registerIdempotency } from './plugins/idempotency';
import { registerInputGuard } from './plugins/input-guard';
import { registerMetrics } from './plugins/metrics';
import { registerRateLimits } from './plugins/rate-limit';
import { registerRequestDeadline } from './plugins/request-deadline';
import { registerRequestLog, requestIdOf } from './plugins/request-log';
import { registerSecurity } from './plugins/security';
import { registerSerializer } from './plugins/serializer';
import { registerSessions } from './plugins/session';
import type { ObjectStorage } from './storage/object-storage';
import { openStorage } from './storage/open-storage';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    database: Database;
    config: AppConfig;
    storage: ObjectStorage;
    /** The webhook outbox's sender (decision 127). */
    webhooks: WebhookSender;
  }
}

export interface BuildOptions {
  /** The clock sessions expire by (tests move it); Date.now otherwise. */
  now?: () => number;
  /** Shared with the PostgreSQL bridge, which tells it what other instances changed. */
  live?: LiveHub;
  /** Where log lines go (tests read them); standard output otherwise. */
  logStream?: { write(line: string): void };
}

/** Builds the whole app without listening: main.ts listens, tests call app.inject(). */
export async function buildApp(
  config: AppConfig,
  database: Database,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: [
              'req.headers.cookie',
              'req.headers.authorization',
              'res.headers["set-cookie"]',
            ],
            ...(options.logStream && { stream: options.logStream }),
          },
    // X-Request-Id passed on, or a random id (plugins/request-log.ts).
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Polls are not logged one by one: plugins/request-log.ts decides what is worth a line.
    logController: new LogController({ disableRequestLogging: true }),
    // A hop count trusts that many proxies nearest to us, and no more (config.ts).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A stalled or crawling request (an upload at a byte a second) is cut off.
    connectionTimeout: config.requestIdleSeconds * 1000,
    requestTimeout: config.requestBodySeconds * 1000,
    frameworkErrors,
    clientErrorHandler,
    // A request without Host reaches our handlers (and gets our 400 shape, not Node's bare one).
    http: { requireHostHeader: false },
  });
  // Node would answer an unknown Expect header with a bare 417 of its own.
  app.server.on('checkExpectation', refuseExpectation);
  app.setValidatorCompiler(validatorCompiler);
  registerSerializer(app);
  app.decorate('db', database.db);
  app.decorate('database', database);
  app.decorate('config', config);
  app.decorate('now', options.now ?? Date.now);
  app.decorate('draining', false);
  app.decorate<ObjectStorage>('storage', openStorage(config));

  registerErrorHandling(app);
  registerRequestLog(app);
  // Before security: its onSend turns a matching answer into the 304 security's onSend sees.
  registerLiveCache(app, options.live ?? new LiveHub());
  registerSecurity(app);
  registerInputGuard(app);
  registerRequestDeadline(app, config.requestBodySeconds);
  // The session rows belong to the sessions module; the plugin is handed them (decision 100).
  await registerSessions(app, config.sessionSecret, {
    read: readSessions,
    reauthAt: reauthAtOf,
    create: createSession,
    renew: renewSessions,
    end: endSessions,
  });
  await registerRateLimits(app);
  registerStaffGuard(app);
  registerIdempotency(app);
  registerMail(app);
  const webhooks = new WebhookSender(app.run.bind(app), config, app.now, app.log);
  app.decorate('webhooks', webhooks);
  // Started by the server's entry (main.ts) with the other workers; a test app sends the outbox
  // when it asks (deliverDue), so no tick of its own lands among the statements a test counts.
  app.addHook('onClose', async () => webhooks.stop());

  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 11 },
  });
  await registerApiDocs(app);
  registerMetrics(app);
  await app.register(authRoutes);
  await app.register(passwordRoutes);
  await app.register(accountRoutes);
  await app.register(privacyRoutes);
  await app.register(sessionRoutes);
  await app.register(notificationRoutes);
  await app.register(fileRoutes);
  await app.register(paymentMethodRoutes);
  await app.register(rateRoutes);
  await app.register(reviewTimeRoutes);
  await app.register(cardRoutes);
  await app.register(apiKeyRoutes);
  await app.register(partnerRoutes);
  await app.register(webhookRoutes);
  await app.register(adminRoutes);
  await app.register(analyticsRoutes);
  await app.register(payoutRoutes);
  await app.register(ledgerRoutes);
  await app.register(reconciliationRoutes);
  await app.register(chatRoutes);
  await app.register(supportRoutes);
  await app.register(verificationRoutes);
  await app.register(staffRoutes);
  await app.register(eventRoutes);
  await app.register(healthRoutes);

  await registerClient(app, config.clientDir);
  return app;
}

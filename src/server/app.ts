import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES } from '../shared/card-rules';
import type { AppConfig } from './config';
import type { Database, Db } from './db/client';
import adminRoutes from './modules/admin/routes';
import authRoutes from './modules/auth/routes';
import cardRoutes from './modules/cards/routes';
import chatRoutes from './modules/chat/routes';
import fileRoutes from './modules/files/routes';
import paymentMethodRoutes from './modules/payment-methods/routes';
import supportRoutes from './modules/support/routes';
import { registerClient } from './plugins/client';
import { registerErrorHandling } from './plugins/errors';
import { registerSecurity } from './plugins/security';
import { registerSessions } from './plugins/session';
import { LocalDiskStorage } from './storage/local-disk-storage';
import type { ObjectStorage } from './storage/object-storage';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: AppConfig;
    storage: ObjectStorage;
  }
}

/** Builds the whole app without listening: main.ts listens, tests call app.inject(). */
export async function buildApp(config: AppConfig, database: Database): Promise<FastifyInstance> {
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
          },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', database.db);
  app.decorate('config', config);
  app.decorate('storage', new LocalDiskStorage(path.join(config.dataDir, 'objects')));

  registerErrorHandling(app);
  registerSecurity(app);
  await registerSessions(app, database.db, config.sessionSecret);

  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 11 },
  });
  await app.register(authRoutes);
  await app.register(fileRoutes);
  await app.register(paymentMethodRoutes);
  await app.register(cardRoutes);
  await app.register(adminRoutes);
  await app.register(chatRoutes);
  await app.register(supportRoutes);

  await registerClient(app, config.clientDir);
  return app;
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditEntrySchema } from '../../../shared/admin';
import { wholeNumberParam } from '../../../shared/params';
import {
  adminVerificationListQuerySchema,
  adminVerificationSchema,
  levelLimitsSchema,
  updateLimitsSchema,
  verificationDecisionSchema,
  verificationStateSchema,
  verificationSubmissionSchema,
} from '../../../shared/verification';
import { createVerificationSchema } from '../../../shared/verification-submission';
import { sendPage } from '../../common/cursor';
import { notFound, onId } from '../../common/http-error';
import { accountOf, requireCustomer } from '../../plugins/auth';
import { decideVerification, submitVerification, updateLevelLimits } from './commands';
import {
  findAdminVerification,
  limitsHistory,
  listAdminVerifications,
  verificationAudit,
  verificationState,
} from './queries';
import { levelLimits } from './selling-limits';

const HISTORY_SHOWN = 200;

export default async function verificationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/verification',
    { onRequest: requireCustomer, schema: { response: { 200: verificationStateSchema } } },
    async (request) => {
      const state = await verificationState(
        app.db,
        accountOf(request).id,
        app.now(),
        app.config.verification.documentRetentionDays,
      );
      if (!state) throw notFound('Account not found');
      return state;
    },
  );

  r.post(
    '/api/verification',
    {
      onRequest: requireCustomer,
      schema: { body: createVerificationSchema, response: { 201: verificationSubmissionSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const created = await app.run((context) => submitVerification(context, userId, request.body));
      return reply.code(201).send(created);
    },
  );

  r.get(
    '/api/admin/verifications',
    {
      config: { capability: 'verifications' },
      schema: {
        querystring: adminVerificationListQuerySchema,
        response: { 200: z.array(adminVerificationSchema) },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await listAdminVerifications(app.db, request.query));
    },
  );

  r.get(
    '/api/admin/verifications/:id',
    onId('verifications', 'Verification not found', {
      response: { 200: adminVerificationSchema.extend({ audit: z.array(auditEntrySchema) }) },
    }),
    async (request) => {
      const { id } = request.params;
      const found = await findAdminVerification(app.db, id);
      if (!found) throw notFound('Verification not found');
      return { ...found, audit: await verificationAudit(app.db, id) };
    },
  );

  r.post(
    '/api/admin/verifications/:id/decision',
    onId('verifications', 'Verification not found', {
      body: verificationDecisionSchema,
      response: { 200: adminVerificationSchema },
    }),
    async (request) => {
      const { id } = request.params;
      await app.run((context) => decideVerification(context, accountOf(request), id, request.body));
      return (await findAdminVerification(app.db, id))!;
    },
  );

  r.get(
    '/api/admin/limits',
    {
      config: { capability: 'verifications' },
      schema: { response: { 200: z.array(levelLimitsSchema) } },
    },
    async () => levelLimits(app.db),
  );

  r.get(
    '/api/admin/limits/history',
    {
      config: { capability: 'verifications' },
      schema: { response: { 200: z.array(auditEntrySchema) } },
    },
    async () => limitsHistory(app.db, HISTORY_SHOWN),
  );

  r.put(
    '/api/admin/limits/:level',
    {
      config: { capability: 'limits.manage' },
      schema: {
        params: z.object({
          level: wholeNumberParam('level', 0, 2, 'level must be 0, 1 or 2'),
        }),
        body: updateLimitsSchema,
        response: { 200: levelLimitsSchema },
      },
    },
    async (request) => {
      const { level } = request.params;
      return app.run((context) =>
        updateLevelLimits(context, accountOf(request), level, request.body),
      );
    },
  );
}

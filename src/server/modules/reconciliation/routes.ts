import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAYMENT_METHOD_TYPES } from '../../../shared/payment-methods';
import {
  MAX_STATEMENT_BYTES,
  reconciliationSchema,
  reconciliationSummarySchema,
} from '../../../shared/reconciliation';
import { badRequest } from '../../common/http-error';
import { accountOf, requireStaff } from '../../plugins/auth';
import { readFormFile } from '../files';
import { importStatement } from './commands';
import { parseStatement } from './parse';
import { listStatements } from './queries';

export default async function reconciliationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  app.addHook('onRequest', requireStaff);

  // A payout method's statement matched to the payments sent through it (issue 39): finance.
  r.post(
    '/api/admin/reconciliation/statements',
    {
      config: { capability: 'books' },
      schema: {
        consumes: ['multipart/form-data'],
        response: { 201: reconciliationSchema },
      },
    },
    async (request, reply) => {
      const { bytes, filename, fields } = await readFormFile(request, MAX_STATEMENT_BYTES);
      const paymentType =
        fields.paymentType ?? (request.query as { paymentType?: string }).paymentType;
      if (!PAYMENT_METHOD_TYPES.includes(paymentType as (typeof PAYMENT_METHOD_TYPES)[number])) {
        throw badRequest('Choose the payment method the statement is for', 'paymentType');
      }
      const lines = parseStatement(bytes);
      const result = await app.run((context) =>
        importStatement(context, accountOf(request), {
          paymentType: paymentType!,
          fileName: filename || 'statement.csv',
          bytes,
          lines,
        }),
      );
      return reply.code(201).send(result);
    },
  );

  r.get(
    '/api/admin/reconciliation/statements',
    {
      config: { capability: 'books' },
      schema: { response: { 200: z.array(reconciliationSummarySchema) } },
    },
    async () => listStatements(app.db),
  );
}

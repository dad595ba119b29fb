import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toCsv } from '../../../shared/csv';
import {
  achBatchCreateSchema,
  achBatchListItemSchema,
  achBatchSchema,
  achReturnsResultSchema,
  createDisbursementsResultSchema,
  createDisbursementsSchema,
  disbursementListQuerySchema,
  disbursementListSchema,
  disbursementSchema,
  payoutRailSchema,
  railParamsSchema,
  setRailSchema,
} from '../../../shared/disbursements';
import { paymentMethodLabel } from '../../../shared/payment-methods';
import { markSentResultSchema, markSentSchema, payoutsSchema } from '../../../shared/payouts';
import { displayName } from '../../../shared/user-display';
import { sendFile } from '../../common/download';
import { HttpError } from '../../common/http-error';
import { accountOf, requireStaff } from '../../plugins/auth';
import { holdRulesOf } from '../cards';
import { readFormFile } from '../files';
import { achReturns } from './ach';
import {
  applyAchReturns,
  cancelDisbursement,
  createAchBatch,
  createDisbursements,
  markSentManually,
  recordPayoutExport,
  retryDisbursement,
  setAutoPayout,
  settleAchBatch,
} from './commands';
import { evmChain, walletBalances } from './evm';
import { achBatchFile, listPayouts } from './queries';
import { findDisbursement, listAchBatches, listDisbursements, listRails } from './rails';

const idParams = z.object({ id: z.uuid({ error: 'Payout not found' }) });
const batchParams = z.object({ id: z.uuid({ error: 'ACH batch not found' }) });
/** A return file: 94-character records, a few thousand at most. */
const MAX_RETURN_FILE_BYTES = 2 * 1024 * 1024;

/** The CSV's columns, in order: what a person needs to send the money (decision 052). */
const CSV_COLUMNS = [
  'Card ID',
  'Submitted',
  'Customer Name',
  'Customer Email',
  'Payment Method',
  'Account Name',
  'Identifier',
  'Account Number',
  'Bank Name',
  'Routing Number',
  'Card Type',
  'Card Value',
  'Amount',
];

export default async function payoutRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The hot wallet's balances, or null when its node does not answer. */
  const railBalances = async () => {
    const evm = app.config.payouts.evm;
    if (!evm) return null;
    return walletBalances(evmChain(evm)).catch(() => null);
  };
  // Staff only: 401 signed out, 403 for customers.
  app.addHook('onRequest', requireStaff);

  r.get(
    '/api/admin/payouts',
    {
      // Payable cards change with the queue: a review, a new card, an edited payment method.
      config: { capability: 'payouts', live: { topic: 'queue', scope: 'staff' } },
      schema: { response: { 200: payoutsSchema } },
    },
    async () => listPayouts(app.db, holdRulesOf(app)),
  );

  r.get('/api/admin/payouts.csv', { config: { capability: 'payouts' } }, async (request, reply) => {
    const { groups } = await listPayouts(app.db, holdRulesOf(app));
    const cards = groups.flatMap((g) => g.cards);
    const rows = cards.map((c) => [
      c.id,
      c.createdAt,
      displayName({ email: c.userEmail, firstName: c.userFirstName, lastName: c.userLastName }),
      c.userEmail,
      c.paymentMethodType ? paymentMethodLabel(c.paymentMethodType) : '',
      c.paymentMethodAccountName,
      c.paymentMethodIdentifier,
      c.paymentMethodAccountNumber,
      c.paymentMethodBankName,
      c.paymentMethodRoutingNumber,
      c.cardType,
      c.cardValue,
      c.amount,
    ]);
    await app.run((context) => recordPayoutExport(context, accountOf(request), cards.length));
    const day = new Date(app.now()).toISOString().slice(0, 10);
    const csv = Buffer.from(toCsv([CSV_COLUMNS, ...rows]), 'utf8');
    const name = `cardbridge-payouts-${day}.csv`;
    return sendFile(reply, { type: 'text/csv; charset=utf-8', name, cache: 'no-store' }, csv);
  });

  r.post(
    '/api/admin/payouts/mark-sent',
    {
      config: { capability: 'payouts' },
      schema: { body: markSentSchema, response: { 200: markSentResultSchema } },
    },
    async (request) =>
      app.run((context) => markSentManually(context, accountOf(request), request.body)),
  );

  // Payout rails and payouts as records (issue 40, decision 120): owners and finance.
  r.get(
    '/api/admin/payout-rails',
    {
      config: { capability: 'payouts' },
      schema: { response: { 200: z.array(payoutRailSchema) } },
    },
    async () => listRails(app.db, app.config, railBalances),
  );

  r.put(
    '/api/admin/payout-rails/:rail',
    {
      config: { capability: 'payouts' },
      schema: {
        params: railParamsSchema,
        body: setRailSchema,
        response: { 200: payoutRailSchema },
      },
    },
    async (request) => {
      const { rail } = request.params;
      await app.run((context) =>
        setAutoPayout(context, accountOf(request), rail, request.body.autoPayout),
      );
      const rails = await listRails(app.db, app.config, railBalances);
      return rails.find((r) => r.rail === rail)!;
    },
  );

  r.post(
    '/api/admin/disbursements',
    {
      config: { capability: 'payouts' },
      schema: {
        body: createDisbursementsSchema,
        response: { 201: createDisbursementsResultSchema },
      },
    },
    async (request, reply) => {
      const result = await app.run((context) =>
        createDisbursements(context, accountOf(request), request.body.transactionIds),
      );
      return reply.code(201).send(result);
    },
  );

  r.get(
    '/api/admin/disbursements',
    {
      config: { capability: 'payouts' },
      schema: {
        querystring: disbursementListQuerySchema,
        response: { 200: disbursementListSchema },
      },
    },
    async (request) => listDisbursements(app.db, request.query),
  );

  r.get(
    '/api/admin/disbursements/:id',
    {
      config: { capability: 'payouts' },
      schema: { params: idParams, response: { 200: disbursementSchema } },
    },
    async (request) => {
      const found = await findDisbursement(app.db, request.params.id);
      if (!found) throw new HttpError(404, 'Payout not found');
      return found;
    },
  );

  r.post(
    '/api/admin/disbursements/:id/retry',
    {
      config: { capability: 'payouts' },
      schema: { params: idParams, response: { 200: disbursementSchema } },
    },
    async (request) =>
      app.run((context) => retryDisbursement(context, accountOf(request), request.params.id)),
  );

  r.post(
    '/api/admin/disbursements/:id/cancel',
    {
      config: { capability: 'payouts' },
      schema: { params: idParams, response: { 200: disbursementSchema } },
    },
    async (request) =>
      app.run((context) => cancelDisbursement(context, accountOf(request), request.params.id)),
  );

  // The ACH file rail (issue 40, decision 122).
  r.post(
    '/api/admin/ach-batches',
    {
      config: { capability: 'payouts' },
      schema: { body: achBatchCreateSchema.optional(), response: { 201: achBatchSchema } },
    },
    async (request, reply) => {
      const batch = await app.run((context) =>
        createAchBatch(context, accountOf(request), request.body?.disbursementIds),
      );
      return reply.code(201).send(batch);
    },
  );

  r.get(
    '/api/admin/ach-batches',
    {
      config: { capability: 'payouts' },
      schema: { response: { 200: z.array(achBatchListItemSchema) } },
    },
    async () => listAchBatches(app.db),
  );

  r.get(
    '/api/admin/ach-batches/:id/file',
    { config: { capability: 'payouts' }, schema: { params: batchParams } },
    async (request, reply) => {
      const batch = await achBatchFile(app.db, request.params.id);
      if (!batch) throw new HttpError(404, 'ACH batch not found');
      const name = `cardbridge-ach-${batch.createdAt.toISOString().slice(0, 10)}-${request.params.id.slice(0, 8)}.txt`;
      return sendFile(
        reply,
        { type: 'text/plain; charset=utf-8', name, cache: 'no-store' },
        Buffer.from(batch.fileText, 'utf8'),
      );
    },
  );

  r.post(
    '/api/admin/ach-batches/:id/settled',
    {
      config: { capability: 'payouts' },
      schema: {
        params: batchParams,
        response: { 200: z.object({ id: z.string(), confirmed: z.number() }) },
      },
    },
    async (request) =>
      app.run((context) => settleAchBatch(context, accountOf(request), request.params.id)),
  );

  r.post(
    '/api/admin/ach-returns',
    {
      config: { capability: 'payouts' },
      schema: { consumes: ['multipart/form-data'], response: { 200: achReturnsResultSchema } },
    },
    async (request) => {
      const { bytes } = await readFormFile(request, MAX_RETURN_FILE_BYTES);
      const returns = achReturns(bytes.toString('latin1'));
      return app.run((context) => applyAchReturns(context, accountOf(request), returns));
    },
  );
}

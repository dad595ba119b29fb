import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createTransactionSchema } from '../../../shared/card-rules';
import { isTimeZone } from '../../../shared/dates';
import {
  createAppealSchema,
  SCAM_REFUSED,
  timelineEntrySchema,
} from '../../../shared/fair-dealing';
import { createFeedbackSchema, feedbackSchema } from '../../../shared/feedback';
import { isPaid } from '../../../shared/statuses';
import { statsSchema, transactionSchema } from '../../../shared/transactions';
import { displayName } from '../../../shared/user-display';
import { findUserById } from '../../common/accounts';
import { sendFile } from '../../common/download';
import { HttpError, idParams, notFound } from '../../common/http-error';
import {
  accountOf,
  requireActiveAccount,
  requireCustomer,
  requireSignedIn,
} from '../../plugins/auth';
import { appealCard } from './appeals';
import { rateCard } from './feedback';
import { answerOffer } from './offers';
import { holdRulesOf } from './payout-holds';
import { findTransaction, listTransactions, toTransaction, transactionStats } from './queries';
import { renderReceipt } from './receipt';
import { recordScamCheckRefusal, submitCard } from './submit';
import { cardTimeline } from './timeline';
import { withdrawCard } from './withdraw';

/**
 * An answer already written as JSON (the customer's cards, issue 45): sent as it is, with the
 * type the route's serialiser would have given it.
 */
const sendJson = (reply: FastifyReply, body: string) =>
  reply.type('application/json; charset=utf-8').send(body);

const RECEIPT_NOT_PAID = 'A receipt is available once the payout has been sent';

export default async function cardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/transactions',
    {
      // A suspended customer cannot sell (decision 072); the command checks again under its lock.
      onRequest: [requireCustomer, requireActiveAccount],
      // A retry after a timeout sends the same Idempotency-Key: one card (issue 42).
      config: { idempotent: true },
      schema: { body: createTransactionSchema, response: { 201: transactionSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      // A scam victim is stopped before anything else, and staff can see it (decision 073).
      if (request.body.scamCheck === 'yes') {
        await app.run((context) => recordScamCheckRefusal(context, userId, request.body));
        throw new HttpError(422, SCAM_REFUSED, { scamCheck: SCAM_REFUSED }, { code: 'scam_check' });
      }
      const id = await app.run((context) => submitCard(context, userId, request.body));
      const created = await findTransaction(app.db, id, userId);
      return reply.code(201).send(toTransaction(created!, holdRulesOf(app)));
    },
  );

  r.get(
    '/api/transactions',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'transactions' } },
      schema: { response: { 200: z.array(transactionSchema) } },
    },
    async (request, reply) =>
      sendJson(reply, await listTransactions(app.db, accountOf(request).id, holdRulesOf(app))),
  );

  r.get(
    '/api/transactions/recent',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'transactions' } },
      schema: { response: { 200: z.array(transactionSchema) } },
    },
    async (request, reply) =>
      sendJson(
        reply,
        await listTransactions(app.db, accountOf(request).id, holdRulesOf(app), true),
      ),
  );

  r.get(
    '/api/stats',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'stats' } },
      schema: { response: { 200: statsSchema } },
    },
    async (request) => transactionStats(app.db, accountOf(request).id),
  );

  r.get(
    '/api/transactions/:id/receipt',
    {
      onRequest: requireSignedIn,
      schema: {
        params: idParams('Transaction not found'),
        // The viewer's time zone, so the receipt shows times as the app does.
        querystring: z.object({
          tz: z.string().max(64).refine(isTimeZone, 'Unknown time zone').optional().default('UTC'),
        }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params;
      const row = await findTransaction(app.db, id, account.isAdmin ? undefined : account.id);
      if (!row) throw notFound('Transaction not found');
      // A receipt says money was paid: only once payment is sent or confirmed (decision 060).
      if (!isPaid(row.paymentStatus)) {
        throw new HttpError(409, RECEIPT_NOT_PAID, undefined, { code: 'not_paid' });
      }
      const customer = await findUserById(app.db, row.userId);
      const pdf = await renderReceipt(
        {
          ...row,
          customerName: customer ? displayName(customer) : '',
          customerEmail: customer?.email ?? '',
        },
        request.query.tz,
      );
      const name = `cardbridge-receipt-${id.slice(0, 8)}.pdf`;
      return sendFile(reply, { type: 'application/pdf', name }, Buffer.from(pdf));
    },
  );

  r.post(
    '/api/transactions/:id/feedback',
    {
      onRequest: requireCustomer,
      schema: {
        params: idParams('Transaction not found'),
        body: createFeedbackSchema,
        response: { 201: feedbackSchema },
      },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const { id } = request.params;
      const saved = await app.run((context) => rateCard(context, userId, id, request.body));
      return reply.code(201).send(saved);
    },
  );

  for (const answer of ['accept', 'decline'] as const) {
    r.post(
      `/api/transactions/:id/offer/${answer}`,
      {
        onRequest: requireCustomer,
        schema: { params: idParams('Transaction not found'), response: { 200: transactionSchema } },
      },
      async (request) => {
        const account = accountOf(request);
        const { id } = request.params;
        await app.run((context) => answerOffer(context, account, id, answer));
        return toTransaction((await findTransaction(app.db, id, account.id))!, holdRulesOf(app));
      },
    );
  }

  r.post(
    '/api/transactions/:id/appeal',
    {
      onRequest: requireCustomer,
      schema: {
        params: idParams('Transaction not found'),
        body: createAppealSchema,
        response: { 201: transactionSchema },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params;
      await app.run((context) => appealCard(context, account, id, request.body));
      return reply
        .code(201)
        .send(toTransaction((await findTransaction(app.db, id, account.id))!, holdRulesOf(app)));
    },
  );

  r.post(
    '/api/transactions/:id/withdraw',
    {
      onRequest: requireCustomer,
      schema: { params: idParams('Transaction not found'), response: { 200: transactionSchema } },
    },
    async (request) => {
      const account = accountOf(request);
      const { id } = request.params;
      await app.run((context) => withdrawCard(context, account, id));
      return toTransaction((await findTransaction(app.db, id, account.id))!, holdRulesOf(app));
    },
  );

  r.get(
    '/api/transactions/:id/timeline',
    {
      onRequest: requireSignedIn,
      schema: {
        params: idParams('Transaction not found'),
        response: { 200: z.array(timelineEntrySchema) },
      },
    },
    async (request) => {
      const account = accountOf(request);
      const { id } = request.params;
      const steps = await cardTimeline(app.db, id, {
        ownerId: account.isAdmin ? undefined : account.id,
        withBy: false,
      });
      if (!steps) throw notFound('Transaction not found');
      return steps;
    },
  );
}

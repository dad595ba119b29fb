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
import { queuePlacesOf } from './queue-places';
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

/**
 * A customer's action on one of their cards (`/api/transactions/:id/…`): `:id` params answering
 * 404 for a non-UUID, beside the rest of its schema.
 */
const onOwnCard = <S extends object>(schema: S) => ({
  onRequest: requireCustomer,
  schema: { params: idParams('Transaction not found'), ...schema },
});

export default async function cardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The customer's card as the API answers it, read after the command that changed it. */
  /** Every pending card's place, held by this instance (decision 155). */
  const places = queuePlacesOf(app);
  const ownCard = async (id: string, userId: string) =>
    toTransaction((await findTransaction(app.db, id, userId))!, holdRulesOf(app));

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
      return reply.code(201).send(await ownCard(id, userId));
    },
  );

  // All of the customer's cards, and the most recent few: one answer, two lengths.
  for (const [path, recent] of [
    ['/api/transactions', false],
    ['/api/transactions/recent', true],
  ] as const) {
    r.get(
      path,
      {
        onRequest: requireSignedIn,
        config: { live: { topic: 'transactions' } },
        schema: { response: { 200: z.array(transactionSchema) } },
      },
      async (request, reply) =>
        sendJson(
          reply,
          await listTransactions(app.db, places, accountOf(request).id, holdRulesOf(app), recent),
        ),
    );
  }

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
    onOwnCard({ body: createFeedbackSchema, response: { 201: feedbackSchema } }),
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
      onOwnCard({ response: { 200: transactionSchema } }),
      async (request) => {
        const account = accountOf(request);
        const { id } = request.params;
        await app.run((context) => answerOffer(context, account, id, answer));
        return ownCard(id, account.id);
      },
    );
  }

  r.post(
    '/api/transactions/:id/appeal',
    onOwnCard({ body: createAppealSchema, response: { 201: transactionSchema } }),
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params;
      await app.run((context) => appealCard(context, account, id, request.body));
      return reply.code(201).send(await ownCard(id, account.id));
    },
  );

  r.post(
    '/api/transactions/:id/withdraw',
    onOwnCard({ response: { 200: transactionSchema } }),
    async (request) => {
      const account = accountOf(request);
      const { id } = request.params;
      await app.run((context) => withdrawCard(context, account, id));
      return ownCard(id, account.id);
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

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createTransactionSchema, quote } from '../../../shared/card-rules';
import {
  createFeedbackSchema,
  FEEDBACK_ALREADY_GIVEN,
  FEEDBACK_NOT_COMPLETED,
  feedbackSchema,
} from '../../../shared/feedback';
import { isUuid } from '../../../shared/ids';
import { isPaid } from '../../../shared/statuses';
import { statsSchema, transactionSchema } from '../../../shared/transactions';
import { displayName } from '../../../shared/user-display';
import { transactions } from '../../db/schema';
import { STAFF } from '../../live/hub';
import { accountOf, requireCustomer, requireSignedIn } from '../../plugins/auth';
import { badRequest, HttpError, notFound } from '../../plugins/errors';
import { findUserById } from '../auth/accounts';
import { runSubmissionChecks } from '../checks/checks';
import { claimCardImages } from '../files/uploads';
import { findUsablePaymentMethod } from '../payment-methods/queries';
import { belowMinimum, rateChanged, termsForSubmission } from '../rates/queries';
import {
  addFeedback,
  findTransaction,
  listTransactions,
  toTransaction,
  transactionStats,
} from './queries';
import { isTimeZone, renderReceipt } from './receipt';

const idParams = z.object({ id: z.string() });

const RECEIPT_NOT_PAID = 'A receipt is available once the payout has been sent';

const IMAGES_NOT_YOURS =
  'Each image must be one you uploaded for this card and not used by another card';

export default async function cardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/transactions',
    {
      onRequest: requireCustomer,
      schema: { body: createTransactionSchema, response: { 201: transactionSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const input = request.body;
      const method = await findUsablePaymentMethod(app.db, userId, input.paymentMethodId);
      if (!method) throw badRequest('Payment method not found', 'paymentMethodId');

      const id = await app.db.transaction(async (tx) => {
        // The brand's current terms, share-locked until commit (modules/rates): the rate and
        // payout are the server's, stored on the row, and the quote at submission holds.
        const terms = await termsForSubmission(tx, input.cardType);
        const low = belowMinimum(terms, input.cardValue);
        if (low) throw badRequest(low, 'cardValue');
        if (input.quotedRate !== undefined && Number(input.quotedRate) !== Number(terms.rate)) {
          throw rateChanged(terms, input.quotedRate);
        }
        const { rate, expectedPayout } = quote(terms.rate, input.cardValue);
        const [row] = await tx
          .insert(transactions)
          .values({
            userId,
            cardType: input.cardType,
            cardValue: input.cardValue,
            cardCondition: input.cardCondition,
            cardFormat: input.cardFormat,
            imageUrls: input.imageUrls,
            notes: input.notes || null,
            paymentMethodId: method.id,
            payoutRate: rate,
            expectedPayout,
          })
          .returning({ id: transactions.id });
        if (!(await claimCardImages(tx, userId, row!.id, input.imageUrls))) {
          throw badRequest(IMAGES_NOT_YOURS, 'imageUrls');
        }
        // Duplicate and look-alike photos, velocity, account age, value: in the same transaction.
        await runSubmissionChecks(tx, {
          id: row!.id,
          userId,
          cardType: input.cardType,
          cardValue: input.cardValue,
          terms,
          now: new Date(app.now()),
        });
        return row!.id;
      });
      app.live.changed([userId, STAFF], ['transactions', 'stats', 'queue', 'admin-stats']);
      const created = await findTransaction(app.db, id, userId);
      return reply.code(201).send(toTransaction(created!));
    },
  );

  r.get(
    '/api/transactions',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'transactions' } },
      schema: { response: { 200: z.array(transactionSchema) } },
    },
    async (request) => listTransactions(app.db, accountOf(request).id),
  );

  r.get(
    '/api/transactions/recent',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'transactions' } },
      schema: { response: { 200: z.array(transactionSchema) } },
    },
    async (request) => listTransactions(app.db, accountOf(request).id, true),
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
        params: idParams,
        // The viewer's time zone, so the receipt shows times as the app does.
        querystring: z.object({
          tz: z.string().max(64).refine(isTimeZone, 'Unknown time zone').optional().default('UTC'),
        }),
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound('Transaction not found');
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
      return reply
        .header('Content-Type', 'application/pdf')
        .header(
          'Content-Disposition',
          `attachment; filename="cardbridge-receipt-${id.slice(0, 8)}.pdf"`,
        )
        .header('Cache-Control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );

  r.post(
    '/api/transactions/:id/feedback',
    {
      onRequest: requireCustomer,
      schema: { params: idParams, body: createFeedbackSchema, response: { 201: feedbackSchema } },
    },
    async (request, reply) => {
      const userId = accountOf(request).id;
      const { id } = request.params;
      // Another customer's card answers as one that does not exist.
      const card = isUuid(id) ? await findTransaction(app.db, id, userId) : undefined;
      if (!card) throw notFound('Transaction not found');
      if (card.status !== 'completed') throw new HttpError(409, FEEDBACK_NOT_COMPLETED);
      if (card.feedbackRating !== null) throw new HttpError(409, FEEDBACK_ALREADY_GIVEN);
      const saved = await addFeedback(app.db, userId, id, request.body);
      if (!saved) throw new HttpError(409, FEEDBACK_ALREADY_GIVEN);
      app.live.changed([userId, STAFF], ['transactions', 'queue', 'admin-stats']);
      return reply.code(201).send(saved);
    },
  );
}

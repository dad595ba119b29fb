import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminListQuerySchema,
  adminStatsSchema,
  adminTransactionDetailSchema,
  adminTransactionSchema,
  adminUserSchema,
  claimRequestSchema,
  claimSchema,
  standingChangeSchema,
  updateTransactionSchema,
} from '../../../shared/admin';
import {
  customerNoteInputSchema,
  customerNoteSchema,
  customerNotesPageSchema,
  customerPageQuerySchema,
  customerPageSchema,
  customerPayoutsPageSchema,
  customerTransactionsPageSchema,
} from '../../../shared/customer-page';
import {
  appealDecisionSchema,
  makeOfferSchema,
  offerCreatedSchema,
  timelineEntrySchema,
} from '../../../shared/fair-dealing';
import {
  instantPolicyInputSchema,
  instantPolicySchema,
  sampleReviewSchema,
} from '../../../shared/instant-decisions';
import { clawbackSchema, createClawbackSchema, writeOffSchema } from '../../../shared/ledger';
import { sendPage } from '../../common/cursor';
import { idParams, notFound, onId } from '../../common/http-error';
import type { StandingAction } from '../../common/standing';
import { accountOf, requireStaff } from '../../plugins/auth';
import {
  cardTimeline,
  claimCard,
  decideAppeal,
  findAdminTransaction,
  holdRulesOf,
  instantPolicy,
  listAdminTransactions,
  makeOffer,
  overValueOf,
  releaseClaim,
  removedImagesOf,
  revealCardCode,
  reviewSample,
  setInstantPolicy,
  takeBack,
  transactionAudit,
  updateTransactionAsStaff,
  writeOff,
} from '../cards';
import { checksOf } from '../checks';
import { clawbacksOf } from '../ledger';
import { addCustomerNote, USER_NOT_FOUND } from './commands';
import {
  customerCards,
  customerExists,
  customerNotesOf,
  customerPage,
  customerPayouts,
} from './customer-page';
import { adminStats, findAdminUser, listAdminUsers } from './queries';
import { changeStanding } from './standing';

const NO_CARD = 'Transaction not found';

export default async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Every route here is for staff only: 401 signed out, 403 for customers.
  app.addHook('onRequest', requireStaff);

  r.get(
    '/api/admin/stats',
    {
      config: { capability: 'portal.read', live: { topic: 'admin-stats', scope: 'staff' } },
      schema: { response: { 200: adminStatsSchema } },
    },
    async () => adminStats(app.db),
  );

  r.get(
    '/api/admin/transactions',
    {
      config: { capability: 'cards.read', live: { topic: 'queue', scope: 'staff' } },
      schema: {
        querystring: adminListQuerySchema,
        response: { 200: z.array(adminTransactionSchema) },
      },
    },
    async (request, reply) => {
      return sendPage(
        reply,
        await listAdminTransactions(app.db, { ...request.query, holds: holdRulesOf(app) }),
      );
    },
  );

  r.get(
    '/api/admin/transactions/:id',
    onId('cards.read', NO_CARD, { response: { 200: adminTransactionDetailSchema } }),
    async (request) => {
      const { id } = request.params;
      const transaction = await findAdminTransaction(app.db, id, holdRulesOf(app));
      if (!transaction) throw notFound('Transaction not found');
      const cardCode = await app.run((context) => revealCardCode(context, accountOf(request), id));
      const audit = await transactionAudit(app.db, id);
      return {
        ...transaction,
        cardCode,
        audit,
        overValue: overValueOf(transaction, audit),
        checks: await checksOf(app.db, id),
        removedImages: await removedImagesOf(app.db, id),
      };
    },
  );

  // Instant decisions for trusted sellers (issue 41, decision 131): the owner's policy.
  r.get(
    '/api/admin/instant-decisions',
    {
      config: { capability: 'instant.read' },
      schema: { response: { 200: instantPolicySchema } },
    },
    async () => instantPolicy(app.db),
  );

  r.put(
    '/api/admin/instant-decisions',
    {
      config: { capability: 'instant.manage' },
      schema: { body: instantPolicyInputSchema, response: { 200: instantPolicySchema } },
    },
    async (request) =>
      app.run((context) => setInstantPolicy(context, accountOf(request), request.body)),
  );

  // A sampled instant decision's after-review: confirmed, or marked for a clawback.
  r.post(
    '/api/admin/transactions/:id/sample-review',
    onId('cards.review', NO_CARD, {
      body: sampleReviewSchema,
      response: { 200: z.object({ sampleStatus: z.string() }) },
    }),
    async (request) => {
      const { id } = request.params;
      return app.run((context) =>
        reviewSample(context, accountOf(request), id, request.body.outcome),
      );
    },
  );

  r.get(
    '/api/admin/transactions/:id/timeline',
    onId('cards.read', NO_CARD, { response: { 200: z.array(timelineEntrySchema) } }),
    async (request) => {
      const { id } = request.params;
      const steps = await cardTimeline(app.db, id, { withBy: true });
      if (!steps) throw notFound('Transaction not found');
      return steps;
    },
  );

  r.patch(
    '/api/admin/transactions/:id',
    onId('cards.review', NO_CARD, {
      body: updateTransactionSchema,
      response: { 200: adminTransactionSchema },
    }),
    async (request) => {
      const { id } = request.params;
      const { expectedUpdatedAt, takeOver, overValueReason, ...changes } = request.body;
      await app.run((context) =>
        updateTransactionAsStaff(context, accountOf(request), id, changes, {
          expectedUpdatedAt,
          takeOver,
          overValueReason,
        }),
      );
      return (await findAdminTransaction(app.db, id, holdRulesOf(app)))!;
    },
  );

  // Claimed reviews (decision 078): opening a card claims it, closing releases it.
  r.post(
    '/api/admin/transactions/:id/claim',
    onId('cards.review', NO_CARD, { body: claimRequestSchema, response: { 200: claimSchema } }),
    async (request) => {
      const { id } = request.params;
      return app.run((context) =>
        claimCard(context, accountOf(request), id, request.body?.takeOver ?? false),
      );
    },
  );

  r.delete(
    '/api/admin/transactions/:id/claim',
    onId('cards.review', NO_CARD, { response: { 200: z.object({ released: z.boolean() }) } }),
    async (request) => {
      const { id } = request.params;
      return app.run((context) => releaseClaim(context, accountOf(request), id));
    },
  );

  r.post(
    '/api/admin/transactions/:id/offer',
    onId('cards.review', NO_CARD, { body: makeOfferSchema, response: { 201: offerCreatedSchema } }),
    async (request, reply) => {
      const { id } = request.params;
      const offer = await app.run((context) =>
        makeOffer(context, accountOf(request), id, request.body),
      );
      return reply.code(201).send({ offer });
    },
  );

  r.post(
    '/api/admin/transactions/:id/appeal/decision',
    onId('cards.review', NO_CARD, {
      body: appealDecisionSchema,
      response: { 200: adminTransactionSchema },
    }),
    async (request) => {
      const { id } = request.params;
      await app.run((context) => decideAppeal(context, accountOf(request), id, request.body));
      return (await findAdminTransaction(app.db, id, holdRulesOf(app)))!;
    },
  );

  r.get(
    '/api/admin/users',
    {
      config: { capability: 'users.read', live: { topic: 'users', scope: 'staff' } },
      schema: {
        querystring: adminListQuerySchema.pick({ cursor: true, limit: true }),
        response: { 200: z.array(adminUserSchema) },
      },
    },
    async (request, reply) => {
      return sendPage(reply, await listAdminUsers(app.db, request.query));
    },
  );

  // A page per customer (issue 43 item 15, decision 145): every section at once, each list its
  // first page; the paged ones go on below with their cursor.
  r.get(
    '/api/admin/users/:id',
    {
      config: { capability: 'users.read' },
      schema: { params: idParams(USER_NOT_FOUND), response: { 200: customerPageSchema } },
    },
    async (request) => {
      const page = await customerPage(app, accountOf(request).staffRole!, request.params.id);
      if (!page) throw notFound(USER_NOT_FOUND);
      return page;
    },
  );

  // The paged sections' next pages: 404 for an unknown customer, never an empty list.
  const pagedSection = <S extends z.ZodType>(
    section: string,
    page: S,
    read: (id: string, paging: z.infer<typeof customerPageQuerySchema>) => Promise<z.infer<S>>,
  ) =>
    r.get(
      `/api/admin/users/:id/${section}`,
      onId('users.read', USER_NOT_FOUND, {
        querystring: customerPageQuerySchema,
        // `read` is checked against `page` where both are given: Fastify's reply type cannot
        // resolve a generic schema.
        response: { 200: page as z.ZodType },
      }),
      async (request) => {
        if (!(await customerExists(app.db, request.params.id))) throw notFound(USER_NOT_FOUND);
        return read(request.params.id, request.query);
      },
    );
  pagedSection('transactions', customerTransactionsPageSchema, async (id, paging) => {
    const { items, nextCursor } = await customerCards(app, id, paging);
    return { items, nextCursor: nextCursor ?? null };
  });
  pagedSection('payouts', customerPayoutsPageSchema, (id, paging) =>
    customerPayouts(app.db, id, paging),
  );
  pagedSection('notes', customerNotesPageSchema, (id, paging) =>
    customerNotesOf(app.db, id, paging),
  );

  // Notes staff leave each other about a customer (decision 144): audited, never shown to them.
  r.post(
    '/api/admin/users/:id/notes',
    onId('users.read', USER_NOT_FOUND, {
      body: customerNoteInputSchema,
      response: { 201: customerNoteSchema },
    }),
    async (request, reply) => {
      const note = await app.run((context) =>
        addCustomerNote(context, accountOf(request), request.params.id, request.body.body),
      );
      return reply.code(201).send(note);
    },
  );

  // Account standing (decision 072): suspend and close take a reason; reinstate takes nothing.
  const standingRoute = (action: StandingAction) =>
    r.post(
      `/api/admin/users/:id/${action}`,
      {
        config: { capability: action === 'close' ? 'users.close' : 'users.standing' },
        schema: {
          params: idParams('User not found'),
          ...(action === 'reinstate' ? {} : { body: standingChangeSchema }),
          response: { 200: adminUserSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        const input = (request.body ?? {}) as { reason?: string; note?: string | null };
        await app.run((context) => changeStanding(context, accountOf(request), id, action, input));
        return (await findAdminUser(app.db, id))!;
      },
    );
  standingRoute('suspend');
  standingRoute('close');
  standingRoute('reinstate');

  // Money taken back after payment, and written off (issue 39): finance and owners.
  r.get(
    '/api/admin/transactions/:id/clawbacks',
    onId('cards.read', NO_CARD, { response: { 200: z.array(clawbackSchema) } }),
    async (request) => {
      return clawbacksOf(app.db, request.params.id);
    },
  );

  r.post(
    '/api/admin/transactions/:id/clawback',
    onId('books', NO_CARD, { body: createClawbackSchema, response: { 201: clawbackSchema } }),
    async (request, reply) => {
      const clawback = await app.run((context) =>
        takeBack(context, accountOf(request), request.params.id, request.body),
      );
      return reply.code(201).send(clawback);
    },
  );

  r.post(
    '/api/admin/clawbacks/:id/write-off',
    onId('books', 'Clawback not found', {
      body: writeOffSchema,
      response: { 200: clawbackSchema },
    }),
    async (request) => {
      return app.run((context) =>
        writeOff(context, accountOf(request), request.params.id, request.body.note),
      );
    },
  );
}

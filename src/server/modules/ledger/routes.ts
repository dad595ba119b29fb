import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toCsv } from '../../../shared/csv';
import { isUuid } from '../../../shared/ids';
import {
  balanceSchema,
  booksSchema,
  ledgerEntrySchema,
  statementSchema,
  trialBalanceSchema,
} from '../../../shared/ledger';
import { sendFile } from '../../common/download';
import { badRequest } from '../../common/http-error';
import { accountOf, requireSignedIn, requireStaff } from '../../plugins/auth';
import { exportPostings, statementCsvRows, wholeStatement } from './export';
import { balanceOf, books, ledgerEntriesOf, statementOf, trialBalance } from './queries';

const cursorQuery = z.object({ cursor: z.string().max(40).optional() });
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A day is written YYYY-MM-DD')
  .refine(
    (v) =>
      !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
      new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'No such day',
  );

export default async function ledgerRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The seller's own account (issue 39): refreshed with the cards' figures (topic `stats`).
  r.get(
    '/api/balance',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'stats' } },
      schema: { response: { 200: balanceSchema } },
    },
    async (request) => balanceOf(app.db, accountOf(request).id),
  );

  r.get(
    '/api/balance/statement',
    {
      onRequest: requireSignedIn,
      config: { live: { topic: 'stats' } },
      schema: { querystring: cursorQuery, response: { 200: statementSchema } },
    },
    async (request) => statementOf(app.db, accountOf(request).id, request.query.cursor),
  );

  r.get('/api/balance/statement.csv', { onRequest: requireSignedIn }, async (request, reply) => {
    const rows = statementCsvRows(await wholeStatement(app.db, accountOf(request).id));
    const today = new Date(app.now()).toISOString().slice(0, 10);
    return sendFile(
      reply,
      { type: 'text/csv; charset=utf-8', name: `cardbridge-statement-${today}.csv` },
      Buffer.from(toCsv(rows), 'utf8'),
    );
  });

  // The staff's books: owners and finance (capability `books`).
  r.get(
    '/api/admin/ledger/trial-balance',
    {
      onRequest: requireStaff,
      config: { capability: 'books' },
      schema: { response: { 200: trialBalanceSchema } },
    },
    async () => trialBalance(app.db),
  );

  r.get(
    '/api/admin/ledger/entries',
    {
      onRequest: requireStaff,
      config: { capability: 'books' },
      schema: {
        querystring: cursorQuery.extend({
          transactionId: z.string().optional(),
          customerId: z.string().optional(),
        }),
        response: {
          200: z.object({ items: z.array(ledgerEntrySchema), nextCursor: z.string().nullable() }),
        },
      },
    },
    async (request) => {
      const { transactionId, customerId } = request.query;
      for (const [field, value] of Object.entries({ transactionId, customerId })) {
        if (value !== undefined && !isUuid(value)) throw badRequest(`${field} is not an id`, field);
      }
      return ledgerEntriesOf(app.db, request.query);
    },
  );

  r.get(
    '/api/admin/ledger/books',
    {
      onRequest: requireStaff,
      config: { capability: 'books' },
      schema: { response: { 200: booksSchema } },
    },
    async () => books(app.db, new Date(app.now())),
  );

  r.get(
    '/api/admin/ledger/export.csv',
    {
      onRequest: requireStaff,
      config: { capability: 'books' },
      schema: { querystring: z.object({ from: day, to: day }) },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      if (from > to) throw badRequest('The first day comes after the last', 'from');
      return sendFile(
        reply,
        { type: 'text/csv; charset=utf-8', name: `cardbridge-ledger-${from}-to-${to}.csv` },
        exportPostings(app.db, from, to),
      );
    },
  );
}

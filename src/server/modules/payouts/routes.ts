import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toCsv } from '../../../shared/csv';
import { paymentMethodLabel } from '../../../shared/payment-methods';
import { markSentResultSchema, markSentSchema, payoutsSchema } from '../../../shared/payouts';
import { displayName } from '../../../shared/user-display';
import { sendFile } from '../../common/download';
import { accountOf, requireStaff } from '../../plugins/auth';
import { holdRulesOf, markPayoutsSent } from '../cards';
import { recordPayoutExport } from './commands';
import { listPayouts } from './queries';

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
    async (request) => {
      const { items, payoutReference } = request.body;
      return app.run((context) =>
        markPayoutsSent(context, accountOf(request), items, payoutReference),
      );
    },
  );
}

import { z } from 'zod';
import { PAYMENT_METHOD_TYPES, type PaymentMethodType } from './payment-methods';

/**
 * Payouts that move themselves (issue 40, decision 120). The API calls a payout record a
 * *disbursement* (`/api/admin/payouts` already names the list of payable cards); screens say
 * "payout". A disbursement pays one seller's cards through one rail.
 */
export const DISBURSEMENT_STATUSES = [
  'queued',
  'submitted',
  'confirmed',
  'failed',
  'cancelled',
] as const;
export type DisbursementStatus = (typeof DISBURSEMENT_STATUSES)[number];

/** The states a card counts as "in a payout" in: it may not be paid again. */
export const OPEN_DISBURSEMENT_STATUSES: readonly DisbursementStatus[] = [
  'queued',
  'submitted',
  'confirmed',
];

export const RAIL_KINDS = ['manual', 'ach_file', 'evm_token'] as const;
export type RailKind = (typeof RAIL_KINDS)[number];

/** The rails, each with the payment types it pays. Manual pays every type (the spec's way). */
export const RAILS = [
  { rail: 'manual', kind: 'manual', paymentTypes: [...PAYMENT_METHOD_TYPES] },
  { rail: 'ach', kind: 'ach_file', paymentTypes: ['bank_transfer'] },
  { rail: 'usdt_bep20', kind: 'evm_token', paymentTypes: ['usdt_bep20'] },
] as const satisfies readonly {
  rail: string;
  kind: RailKind;
  paymentTypes: readonly PaymentMethodType[];
}[];
export type RailName = (typeof RAILS)[number]['rail'];
export const RAIL_NAMES = RAILS.map((r) => r.rail) as [RailName, ...RailName[]];

/** The automatic rail that pays a payment type, if there is one (else the type is manual). */
export function automaticRailOf(paymentType: string | null) {
  return RAILS.find(
    (r) => r.kind !== 'manual' && (r.paymentTypes as readonly string[]).includes(paymentType ?? ''),
  );
}

export const REFUSAL_REASONS = ['not_payable', 'held', 'in_payout'] as const;

export const payoutRailSchema = z.object({
  rail: z.enum(RAIL_NAMES),
  paymentTypes: z.array(z.string()),
  kind: z.enum(RAIL_KINDS),
  autoPayout: z.boolean(),
  configured: z.boolean(),
  /** The hot wallet's token and gas balances for an EVM rail, as decimal strings; else null. */
  balances: z.object({ token: z.string(), gas: z.string() }).nullable(),
  /** What the rail's queued payouts add up to, all of them (a decimal string): what it must pay. */
  queued: z.string(),
});
export type PayoutRail = z.infer<typeof payoutRailSchema>;

/** The environment each kind of rail needs before it can pay: all of it, or none (config.ts). */
export const RAIL_ENV: Record<PayoutRail['kind'], string[]> = {
  manual: [],
  ach_file: [
    'ACH_ORIGIN_ROUTING',
    'ACH_ORIGIN_NAME',
    'ACH_DESTINATION_ROUTING',
    'ACH_DESTINATION_NAME',
    'ACH_COMPANY_NAME',
    'ACH_COMPANY_ID',
  ],
  evm_token: [
    'PAYOUT_EVM_RPC_URL',
    'PAYOUT_EVM_CHAIN_ID',
    'PAYOUT_EVM_TOKEN_ADDRESS',
    'PAYOUT_EVM_PRIVATE_KEY',
  ],
};

export const setRailSchema = z.object({
  autoPayout: z.boolean({ error: 'autoPayout must be true or false' }),
});

export const railParamsSchema = z.object({
  rail: z.enum(RAIL_NAMES, { error: 'No such payout rail' }),
});

export const disbursementSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  /** Who is paid, as staff recognise them: the seller's email and name. */
  customerEmail: z.string(),
  customerName: z.string(),
  rail: z.string(),
  /** What is sent, as a decimal string: what the cards are owed less what the seller owes back. */
  amount: z.string(),
  status: z.enum(DISBURSEMENT_STATUSES),
  /** The rail's reference: a staff reference, an ACH trace number, a transaction hash. */
  reference: z.string().nullable(),
  /** Where the reference can be looked at (a transaction hash on the explorer), or null. */
  url: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  transactionIds: z.array(z.string()),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
});
export type Disbursement = z.infer<typeof disbursementSchema>;

export const createDisbursementsSchema = z.object({
  transactionIds: z
    .array(z.uuid({ error: 'Each id must be a transaction id' }), {
      error: 'transactionIds must be a list of transaction ids',
    })
    .min(1, 'Name at least one card')
    .max(200, 'At most 200 cards at once'),
});

export const createDisbursementsResultSchema = z.object({
  disbursements: z.array(disbursementSchema),
  refused: z.array(
    z.object({
      transactionId: z.string(),
      reason: z.enum(REFUSAL_REASONS),
      message: z.string(),
      /** For a held card: when its hold ends. */
      until: z.string().optional(),
    }),
  ),
});
export type CreateDisbursementsResult = z.infer<typeof createDisbursementsResultSchema>;

export const disbursementListQuerySchema = z.object({
  status: z.enum(DISBURSEMENT_STATUSES, { error: 'Unknown status' }).optional(),
  cursor: z.string().max(200).optional(),
});

export const disbursementListSchema = z.object({
  items: z.array(disbursementSchema),
  nextCursor: z.string().nullable(),
});

/** A card's payout as its seller sees it, on each card of GET /api/transactions. */
export const cardPayoutSchema = z
  .object({
    status: z.enum(DISBURSEMENT_STATUSES),
    rail: z.string(),
    reference: z.string().nullable(),
    /** A link to the reference (an explorer's page for a transaction hash), or null. */
    url: z.string().nullable(),
    /** A failed payout's reason in words (only when failed). */
    reason: z.string().nullable().optional(),
  })
  .nullable();
export type CardPayout = z.infer<typeof cardPayoutSchema>;

/** Where a rail's reference can be looked at: a transaction hash on the chain's explorer. */
export function referenceUrl(rail: string, reference: string | null, explorerTxUrl: string) {
  if (!reference) return null;
  if (rail === 'usdt_bep20' && /^0x[0-9a-fA-F]{64}$/.test(reference)) {
    return `${explorerTxUrl}${reference}`;
  }
  return null;
}

export const achBatchCreateSchema = z.object({
  disbursementIds: z
    .array(z.uuid({ error: 'Each id must be a payout id' }))
    .max(1000)
    .optional(),
});

export const achBatchSchema = z.object({
  id: z.string(),
  entries: z.number(),
  total: z.string(),
});

/** An ACH batch as finance lists them: to download again, mark settled or match returns to. */
export const achBatchListItemSchema = achBatchSchema.extend({
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type AchBatchListItem = z.infer<typeof achBatchListItemSchema>;

export const achReturnsResultSchema = z.object({
  returned: z.array(z.object({ disbursementId: z.string(), code: z.string() })),
});

/** NACHA return codes finance sees most, in words (issue 40: "R03: no account…"). */
export const ACH_RETURN_REASONS: Record<string, string> = {
  R01: 'insufficient funds',
  R02: 'account closed',
  R03: 'no account or unable to locate account',
  R04: 'invalid account number',
  R05: 'unauthorized debit to consumer account',
  R06: 'returned per originating bank’s request',
  R07: 'authorization revoked by customer',
  R08: 'payment stopped',
  R09: 'uncollected funds',
  R10: 'customer advises not authorized',
  R13: 'invalid ACH routing number',
  R14: 'representative payee deceased',
  R15: 'beneficiary or account holder deceased',
  R16: 'account frozen',
  R17: 'file record edit criteria',
  R20: 'non-transaction account',
  R23: 'credit entry refused by receiver',
  R24: 'duplicate entry',
  R29: 'corporate customer advises not authorized',
};

export const achReturnText = (code: string) =>
  `${code}: ${ACH_RETURN_REASONS[code] ?? 'returned by the receiving bank'}`;

/** A rail as screens name it. */
export const RAIL_LABELS: Record<string, string> = {
  manual: 'Manual',
  ach: 'ACH bank transfer',
  usdt_bep20: 'USDT (BEP-20)',
};
export const railLabel = (rail: string) => RAIL_LABELS[rail] ?? rail;

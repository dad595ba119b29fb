import { z } from 'zod';

/** A statement file's size limit, and its lines (issue 39, reconciliation). */
export const MAX_STATEMENT_BYTES = 2 * 1024 * 1024;
export const MAX_STATEMENT_LINES = 20_000;
/** A payment sent this many days before a statement's last day should be on it. */
export const STATEMENT_GRACE_DAYS = 3;

const lineSchema = z.object({
  lineNo: z.number(),
  date: z.string(),
  amount: z.string(),
  reference: z.string(),
  payee: z.string().nullable(),
});
export type StatementLine = z.infer<typeof lineSchema>;

export const reconciliationSchema = z.object({
  id: z.string(),
  paymentType: z.string(),
  fileName: z.string(),
  createdAt: z.string(),
  /** Lines read from the file. */
  lines: z.number(),
  /** Lines matched to a payment this import (a file imported again matches nothing twice). */
  matched: z.number(),
  matchedLines: z.array(lineSchema.extend({ transactionIds: z.array(z.string()) })),
  unmatchedLines: z.array(lineSchema),
  /**
   * Payments sent through the method more than STATEMENT_GRACE_DAYS before the file's last day
   * (and not before its first, less those days) that no line of any statement matched.
   */
  unmatchedPayments: z.array(
    z.object({
      transactionId: z.string(),
      paidAt: z.string(),
      amount: z.string(),
      reference: z.string().nullable(),
      customerEmail: z.string(),
    }),
  ),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const reconciliationSummarySchema = reconciliationSchema.pick({
  id: true,
  paymentType: true,
  fileName: true,
  createdAt: true,
  lines: true,
  matched: true,
});

import nach from 'nach2';
import type { AchConfig } from '../../config';

/**
 * The ACH file rail's formats (issue 40, decision 122): a NACHA file of credits made with nach2
 * (never formatted by hand), and the return entries of a bank's return file.
 */

export interface AchEntry {
  /** The receiving bank's 9-digit routing number. */
  routing: string;
  account: string;
  /** Cents. */
  amount: number;
  name: string;
  /** The payout attempt's idempotency key: the entry's individual identification number. */
  idNumber: string;
  /** 15 digits: the origin's first 8 routing digits and a sequence. */
  trace: string;
}

/** A trace number: the sending bank's routing number (8 digits) and a 7-digit sequence. */
export const traceOf = (config: AchConfig, sequence: number) =>
  `${config.originRouting.slice(0, 8)}${String(sequence % 10_000_000).padStart(7, '0')}`;

/** Letters, digits and spaces only, as NACHA's alphanumeric fields take them, cut to `width`. */
const alnum = (text: string, width: number) =>
  text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .slice(0, width)
    .trim() || 'PAYEE';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** The NACHA file of one batch of credits (PPD, service class 220: credits only). */
export function achFile(config: AchConfig, batchNumber: string, at: Date, entries: AchEntry[]) {
  const file = new nach.File({
    immediateDestination: config.destinationRouting,
    immediateOrigin: config.originRouting,
    immediateDestinationName: alnum(config.destinationName, 23),
    immediateOriginName: alnum(config.originName, 23),
    referenceCode: alnum(batchNumber, 8),
    fileIdModifier: 'A',
  });
  const batch = new nach.Batch({
    serviceClassCode: '220',
    companyName: alnum(config.companyName, 16),
    standardEntryClassCode: 'PPD',
    companyIdentification: config.companyId,
    companyEntryDescription: 'PAYOUT',
    companyDescriptiveDate: `${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()}`,
    discretionaryData: 'CARDBRIDGE',
    effectiveEntryDate: at,
    originatingDFI: config.originRouting.slice(0, 8),
  });
  for (const e of entries) {
    batch.addEntry(
      new nach.Entry({
        receivingDFI: e.routing.slice(0, 8),
        checkDigit: e.routing.slice(8, 9),
        DFIAccount: e.account,
        amount: (e.amount / 100).toFixed(2),
        idNumber: e.idNumber,
        individualName: alnum(e.name, 22),
        discretionaryData: 'CB',
        transactionCode: '22',
        traceNumber: e.trace,
      }),
    );
  }
  file.addBatch(batch);
  return new Promise<string>((resolve) => file.generateFile(resolve));
}

/**
 * The returned entries of a bank's return file: each return addenda record (type 7, addenda type
 * 99) names the return reason (R01…) and the original entry's trace number. Other records are
 * read past; a file with none answers none.
 */
export function achReturns(text: string): { code: string; trace: string }[] {
  const returns: { code: string; trace: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('799')) continue;
    const code = line.slice(3, 6);
    const trace = line.slice(6, 21);
    if (/^R\d{2}$/.test(code) && /^\d{15}$/.test(trace)) returns.push({ code, trace });
  }
  return returns;
}

import { createRequire } from 'node:module';

/**
 * The ACH rail's test setup, one home for the API tests (disbursements, payout screens) and the
 * browser test of the rails: the originator's bank details, a seller's bank account, the NACHA
 * reader the sent file is parsed back with, and a bank's return file.
 */

/** The ACH rail's originator details (the server's `payouts.ach`). */
export const ACH = {
  originRouting: '021000021',
  originName: 'Origin Bank',
  destinationRouting: '011000015',
  destinationName: 'Federal Reserve',
  companyName: 'Cardbridge',
  companyId: '1234567890',
};

/** The same details as a server's environment (a built server started by a browser test). */
export const ACH_ENV = {
  ACH_ORIGIN_ROUTING: ACH.originRouting,
  ACH_ORIGIN_NAME: ACH.originName,
  ACH_DESTINATION_ROUTING: ACH.destinationRouting,
  ACH_DESTINATION_NAME: ACH.destinationName,
  ACH_COMPANY_NAME: ACH.companyName,
  ACH_COMPANY_ID: ACH.companyId,
};

/** A seller's bank account: the payment method the ACH rail pays. */
export const BANK = {
  type: 'bank_transfer',
  accountName: 'Casey Seller',
  bankName: 'First Bank',
  accountNumber: '000123456789',
  routingNumber: '011000015',
};

/** The NACHA parser a sent file is read back with (a second library: nach2 only writes). */
export const nacha = createRequire(import.meta.url)('@midlandsbank/node-nacha') as {
  from(text: string): {
    data: {
      batches: {
        entries: {
          receivingDFIIdentification: number;
          checkDigit: number;
          dfiAccount: string;
          amount: number;
          identificationNumber: string;
          traceNumber: number;
        }[];
      }[];
    };
  };
};

/**
 * A bank's ACH return file, as a receiving bank sends one back: per return, a return entry and its
 * 799 addenda record (the R-code and the original entry's trace number). The API tests and the
 * browser test upload it to POST /api/admin/ach-returns.
 */
export function achReturnFile(
  ach: { originRouting: string; destinationRouting: string },
  returns: { trace: string; code: string }[],
) {
  const pad = (s: string) => s.padEnd(94, ' ');
  const lines = [
    pad(
      `101 ${ach.originRouting} ${ach.destinationRouting}2611270000A094101Origin Bank            Federal Reserve        RETURNS`,
    ),
    pad(
      `5220Federal Reserve                     1234567890PPDRETURN    NOV 27261127   1${ach.destinationRouting.slice(0, 8)}0000001`,
    ),
  ];
  returns.forEach((r, i) => {
    lines.push(
      pad(
        `621${ach.originRouting}000000000000     0000000000RETURN${String(i).padStart(9, '0')}RETURNED ENTRY          1${ach.destinationRouting.slice(0, 8)}${String(i + 1).padStart(7, '0')}`,
      ),
    );
    lines.push(
      pad(
        `799${r.code}${r.trace}      ${ach.originRouting.slice(0, 8)}${''.padEnd(44, ' ')}${ach.destinationRouting.slice(0, 8)}${String(i + 1).padStart(7, '0')}`,
      ),
    );
  });
  lines.push(pad('8220'), pad('9000001'));
  return `${lines.join('\n')}\n`;
}

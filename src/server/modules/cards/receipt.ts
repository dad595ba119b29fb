import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../shared/brand';
import { ratePercent } from '../../../shared/brands';
import { CARD_CONDITION_LABELS, CARD_FORMAT_LABELS } from '../../../shared/card-rules';
import { formatMoney } from '../../../shared/money';
import { paymentMethodLabel } from '../../../shared/payment-methods';
import { paymentStatusLabel, statusLabel } from '../../../shared/statuses';

export interface ReceiptData {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  cardType: string;
  cardValue: string;
  cardCondition: string;
  cardFormat: string;
  status: string;
  paymentStatus: string;
  paymentAmount: string | null;
  payoutRate: string;
  expectedPayout: string;
  paymentMethodType: string | null;
  paymentMethodAccountName: string | null;
  paymentMethodIdentifier: string | null;
  customerName: string;
  customerEmail: string;
}

/** The standard PDF fonts speak WinAnsi only; anything else becomes '?'. */
const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

const utc = (date: Date) =>
  `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)} UTC`;

/** Shows only the last 4 characters of an account identifier. */
const mask = (value: string | null) => (value ? `****${value.slice(-4)}` : '');

export async function renderReceipt(data: ReceiptData): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${PRODUCT_NAME} receipt ${data.id}`);
  pdf.setAuthor(PRODUCT_NAME);
  const page = pdf.addPage([595, 842]); // A4
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const green = rgb(0.02, 0.47, 0.34);
  const grey = rgb(0.4, 0.43, 0.48);

  let y = 780;
  page.drawText(PRODUCT_NAME, { x: 50, y, size: 22, font: bold, color: green });
  page.drawText('Payout receipt', { x: 50, y: y - 26, size: 14, font: regular });
  page.drawText(`Receipt for transaction ${data.id}`, {
    x: 50,
    y: y - 44,
    size: 9,
    font: regular,
    color: grey,
  });
  y -= 90;

  const rows: [string, string][] = [
    ['Customer', `${data.customerName} <${data.customerEmail}>`],
    ['Submitted', utc(data.createdAt)],
    ['Last updated', utc(data.updatedAt)],
    ['Card type', data.cardType],
    ['Card value', formatMoney(data.cardValue)],
    ['Condition', CARD_CONDITION_LABELS[data.cardCondition as 'brand_new'] ?? data.cardCondition],
    ['Format', CARD_FORMAT_LABELS[data.cardFormat as 'physical'] ?? data.cardFormat],
    ['Rate at submission', `${ratePercent(data.payoutRate)}%`],
    ['Expected payout', formatMoney(data.expectedPayout)],
    ['Status', statusLabel(data.status)],
    ['Payment status', paymentStatusLabel(data.paymentStatus)],
    [
      'Paid to',
      data.paymentMethodType
        ? `${paymentMethodLabel(data.paymentMethodType)} - ${data.paymentMethodAccountName ?? ''} ${mask(data.paymentMethodIdentifier)}`.trim()
        : 'Not recorded',
    ],
  ];
  for (const [label, value] of rows) {
    page.drawText(label, { x: 50, y, size: 11, font: regular, color: grey });
    page.drawText(printable(value), { x: 200, y, size: 11, font: regular });
    y -= 22;
  }
  y -= 10;
  page.drawLine({
    start: { x: 50, y: y + 8 },
    end: { x: 545, y: y + 8 },
    thickness: 1,
    color: grey,
  });
  page.drawText('Amount paid', { x: 50, y: y - 16, size: 14, font: bold });
  page.drawText(data.paymentAmount ? formatMoney(data.paymentAmount) : 'Not recorded', {
    x: 200,
    y: y - 16,
    size: 14,
    font: bold,
    color: green,
  });
  page.drawText(`Questions about this payout: ${SUPPORT_EMAIL}`, {
    x: 50,
    y: 60,
    size: 9,
    font: regular,
    color: grey,
  });
  return pdf.save();
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import subsetFont from 'subset-font';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../shared/brand';
import { ratePercent } from '../../../shared/brands';
import { CARD_CONDITION_LABELS, CARD_FORMAT_LABELS } from '../../../shared/card-rules';
import { formatZonedDateTime } from '../../../shared/dates';
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
  paidAt: Date | null;
  payoutReference: string | null;
  paymentMethodType: string | null;
  paymentMethodAccountName: string | null;
  paymentMethodIdentifier: string | null;
  paymentMethodAccountNumber?: string | null;
  paymentMethodBankName?: string | null;
  customerName: string;
  customerEmail: string;
}

/**
 * Noto Sans SC cut down to Latin, punctuation, kana and the GB 2312 Chinese characters
 * (scripts/make-receipt-font.py). Each receipt embeds only the glyphs it prints, cut by HarfBuzz
 * (fontkit's own subsetter drops glyphs of this font). It sits beside this file in src and beside
 * the bundled server in dist.
 */
const FONT_FILE = path.join(import.meta.dirname, 'receipt-font.ttf');
let fontBytes: Buffer | undefined;
const receiptFont = () => {
  fontBytes ??= readFileSync(FONT_FILE);
  return fontBytes;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * (ASCII marks: the CJK font draws the middle dot and the ellipsis full-width.)
 * Where the payout went, safe to print: an email or a public handle ($cashtag, @tag) whole, so the
 * customer recognises it; a wallet address by its ends; account and other numbers by their last 4.
 */
export function maskedIdentifier(value: string) {
  if (EMAIL.test(value) || /^[$@]/.test(value)) return value;
  if (/^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/.test(value)) {
    return `${value.slice(0, 6)}...${value.slice(-4)}`;
  }
  return `****${value.slice(-4)}`;
}

function paidTo(data: ReceiptData) {
  if (!data.paymentMethodType) return 'Not recorded';
  const account =
    data.paymentMethodType === 'bank_transfer'
      ? data.paymentMethodAccountNumber
      : data.paymentMethodIdentifier;
  const bank = data.paymentMethodType === 'bank_transfer' ? data.paymentMethodBankName : null;
  const where = [bank, account ? maskedIdentifier(account) : null].filter(Boolean).join(' ');
  return [paymentMethodLabel(data.paymentMethodType), data.paymentMethodAccountName, where]
    .filter(Boolean)
    .join(', ');
}

/** The label and value rows of a receipt, before layout. */
export function receiptRows(data: ReceiptData, timeZone: string): [string, string][] {
  return [
    ['Customer', data.customerName],
    ['Email', data.customerEmail],
    ['Submitted', formatZonedDateTime(data.createdAt, timeZone)],
    ['Last updated', formatZonedDateTime(data.updatedAt, timeZone)],
    ['Card type', data.cardType],
    ['Card value', formatMoney(data.cardValue)],
    ['Condition', CARD_CONDITION_LABELS[data.cardCondition as 'brand_new'] ?? data.cardCondition],
    ['Format', CARD_FORMAT_LABELS[data.cardFormat as 'physical'] ?? data.cardFormat],
    ['Rate at submission', `${ratePercent(data.payoutRate)}%`],
    ['Expected payout', formatMoney(data.expectedPayout)],
    ['Status', statusLabel(data.status)],
    ['Payment status', paymentStatusLabel(data.paymentStatus)],
    ['Paid to', paidTo(data)],
    ['Date paid', data.paidAt ? formatZonedDateTime(data.paidAt, timeZone) : 'Not recorded'],
    ['Payout reference', data.payoutReference ?? 'None given'],
  ];
}

/**
 * Breaks text into lines no wider than `width`: at spaces where it can, inside a word (an email,
 * a long name without spaces) where it must.
 */
export function wrapText(text: string, width: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  const push = (word: string) => {
    const candidate = line ? `${line} ${word}` : word;
    if (measure(candidate) <= width) {
      line = candidate;
      return;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (measure(rest) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && measure(rest.slice(0, cut)) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  };
  for (const word of text.split(/\s+/).filter(Boolean)) push(word);
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

const PAGE = { width: 595, height: 842 }; // A4
const MARGIN = 50;
const VALUE_X = 200;
const SIZE = 11;
const LINE = 16;

export async function renderReceipt(data: ReceiptData, timeZone = 'UTC'): Promise<Uint8Array> {
  const rows = receiptRows(data, timeZone);
  const heading = 'Payout receipt';
  const reference = `Receipt for transaction ${data.id}`;
  const footer = `Times are shown in ${timeZone}. Questions about this payout: ${SUPPORT_EMAIL}`;
  const printed = [heading, reference, footer, ...rows.flat()].join('');
  const glyphs = await subsetFont(receiptFont(), printed, { targetFormat: 'truetype' });

  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(`${PRODUCT_NAME} receipt ${data.id}`);
  pdf.setAuthor(PRODUCT_NAME);
  const text = await pdf.embedFont(glyphs, { subset: false });
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const green = rgb(0.02, 0.47, 0.34);
  const grey = rgb(0.36, 0.39, 0.44);
  let page = pdf.addPage([PAGE.width, PAGE.height]);

  let y = 780;
  page.drawText(PRODUCT_NAME, { x: MARGIN, y, size: 22, font: bold, color: green });
  page.drawText(heading, { x: MARGIN, y: y - 26, size: 14, font: text });
  page.drawText(reference, {
    x: MARGIN,
    y: y - 44,
    size: 9,
    font: text,
    color: grey,
  });
  y -= 84;

  const valueWidth = PAGE.width - MARGIN - VALUE_X;
  const measure = (font: PDFFont) => (s: string) => font.widthOfTextAtSize(s, SIZE);
  const newPageIfFull = (needed: number): PDFPage => {
    if (y - needed < 110) {
      page = pdf.addPage([PAGE.width, PAGE.height]);
      y = 780;
    }
    return page;
  };
  for (const [label, value] of rows) {
    const lines = wrapText(value, valueWidth, measure(text));
    newPageIfFull(lines.length * LINE);
    page.drawText(label, { x: MARGIN, y, size: SIZE, font: text, color: grey });
    for (const line of lines) {
      page.drawText(line, { x: VALUE_X, y, size: SIZE, font: text });
      y -= LINE;
    }
    y -= 6;
  }
  newPageIfFull(40);
  page.drawLine({
    start: { x: MARGIN, y: y + 8 },
    end: { x: PAGE.width - MARGIN, y: y + 8 },
    thickness: 1,
    color: grey,
  });
  page.drawText('Amount paid', { x: MARGIN, y: y - 16, size: 14, font: bold });
  page.drawText(data.paymentAmount ? formatMoney(data.paymentAmount) : 'Not recorded', {
    x: VALUE_X,
    y: y - 16,
    size: 14,
    font: bold,
    color: green,
  });
  page.drawText(footer, {
    x: MARGIN,
    y: 60,
    size: 9,
    font: text,
    color: grey,
  });
  return pdf.save();
}

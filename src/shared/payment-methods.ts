import { z } from 'zod';

export const PAYMENT_METHOD_TYPES = [
  'cash_app',
  'paypal',
  'chime',
  'sofi',
  'revolut',
  'bank_transfer',
  'usdt_bep20',
  'usdt_trc20',
] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

interface TypeInfo {
  label: string;
  identifierLabel: string;
  identifierPlaceholder: string;
}

export const PAYMENT_METHOD_INFO: Record<PaymentMethodType, TypeInfo> = {
  cash_app: {
    label: 'Cash App',
    identifierLabel: 'Cash App Tag',
    identifierPlaceholder: '$yourcashtag',
  },
  paypal: {
    label: 'PayPal',
    identifierLabel: 'PayPal Email',
    identifierPlaceholder: 'you@example.com',
  },
  chime: {
    label: 'Chime',
    identifierLabel: 'Chime $ChimeSign',
    identifierPlaceholder: '$yourchimesign',
  },
  sofi: {
    label: 'SoFi',
    identifierLabel: 'SoFi Email or Phone',
    identifierPlaceholder: 'you@example.com',
  },
  revolut: {
    label: 'Revolut',
    identifierLabel: 'Revolut Tag',
    identifierPlaceholder: '@yourrevtag',
  },
  bank_transfer: {
    label: 'Bank Transfer',
    identifierLabel: 'Identifier',
    identifierPlaceholder: '',
  },
  usdt_bep20: {
    label: 'USDT (BEP20)',
    identifierLabel: 'Wallet Address',
    identifierPlaceholder: '0x…',
  },
  usdt_trc20: {
    label: 'USDT (TRC20)',
    identifierLabel: 'Wallet Address',
    identifierPlaceholder: 'T…',
  },
};

export const paymentMethodLabel = (type: string) =>
  PAYMENT_METHOD_INFO[type as PaymentMethodType]?.label ?? type;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'Too long')
    .nullish()
    .transform((v) => (v ? v : null));

/** Checks of the identifier's shape beyond "required", so a payout is not sent into the void. */
const IDENTIFIER_FORMATS: Partial<Record<PaymentMethodType, [RegExp, string]>> = {
  cash_app: [/^\$?[A-Za-z][A-Za-z0-9_-]{0,19}$/, 'Enter a valid Cash App tag, like $yourcashtag'],
  paypal: [/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Enter a valid PayPal email'],
  usdt_bep20: [
    /^0x[0-9a-fA-F]{40}$/,
    'Enter a valid BEP20 wallet address (0x followed by 40 hex characters)',
  ],
  usdt_trc20: [
    /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
    'Enter a valid TRC20 wallet address (34 characters starting with T)',
  ],
};

const paymentMethodFields = {
  type: z.enum(PAYMENT_METHOD_TYPES, { error: 'Payment method type is required' }),
  accountName: z
    .string({ error: 'Account name is required' })
    .trim()
    .min(1, 'Account name is required')
    .max(200, 'Account name is too long'),
  identifier: optionalText(200),
  accountNumber: optionalText(64),
  bankName: optionalText(200),
  routingNumber: optionalText(64),
};

interface Details {
  type: PaymentMethodType;
  identifier: string | null;
  accountNumber: string | null;
  bankName: string | null;
  routingNumber: string | null;
}

/** The details each type needs (spec section 5), with the spec's messages. */
function checkDetails(input: Details, ctx: z.RefinementCtx) {
  const issue = (path: string, message: string) =>
    ctx.addIssue({ code: 'custom', path: [path], message });
  if (input.type === 'bank_transfer') {
    if (!input.accountNumber)
      issue('accountNumber', 'Account number is required for bank transfers');
    else if (!/^\d{4,17}$/.test(input.accountNumber))
      issue('accountNumber', 'Account number must be 4 to 17 digits');
    if (!input.bankName) issue('bankName', 'Bank name is required for bank transfers');
    if (!input.routingNumber)
      issue('routingNumber', 'Routing number is required for bank transfers');
    else if (!/^\d{9}$/.test(input.routingNumber))
      issue('routingNumber', 'Routing number must be 9 digits');
    return;
  }
  if (!input.identifier) {
    issue('identifier', 'Account identifier is required');
    return;
  }
  const format = IDENTIFIER_FORMATS[input.type];
  if (format && !format[0].test(input.identifier)) issue('identifier', format[1]);
}

/** Only the fields of the chosen type are kept: a bank needs no identifier, a wallet no bank. */
const keepTypesFields = <T extends Details>(input: T): T =>
  input.type === 'bank_transfer'
    ? { ...input, identifier: null }
    : { ...input, accountNumber: null, bankName: null, routingNumber: null };

/** POST /api/payment-methods (spec sections 5 and 7). A userId in the body is ignored. */
export const createPaymentMethodSchema = z
  .object({ ...paymentMethodFields, isDefault: z.boolean().optional().default(false) })
  .superRefine(checkDetails)
  .transform(keepTypesFields);
export type CreatePaymentMethodInput = z.input<typeof createPaymentMethodSchema>;

/**
 * PATCH /api/payment-methods/{id}: the whole method again, checked as on creation. `isDefault`
 * true makes it the default; false or absent leaves the flag as it is, except that the only
 * default cannot be unset (choose another default instead).
 */
export const updatePaymentMethodSchema = z
  .object({ ...paymentMethodFields, isDefault: z.boolean().optional() })
  .superRefine(checkDetails)
  .transform(keepTypesFields);
export type UpdatePaymentMethodInput = z.input<typeof updatePaymentMethodSchema>;

export interface PaymentMethod {
  id: string;
  type: string;
  accountName: string;
  identifier: string | null;
  accountNumber: string | null;
  bankName: string | null;
  routingNumber: string | null;
  isDefault: boolean;
  createdAt: string;
}

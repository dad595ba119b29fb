import { z } from 'zod';
import {
  isAbaRoutingNumber,
  isCashtag,
  isEvmAddress,
  isTronAddress,
  looksLikeIban,
} from './payee-checks';

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

const isEmail = (value: string) => z.email().safeParse(value).success;

/** What the form says about a bank transfer and a Cash App tag (decision 136). */
export const BANK_TRANSFER_NOTE =
  'Bank transfers are sent by ACH to a US bank account: your account number and the 9-digit routing number from your checks or your bank’s app.';
export const CASHTAG_NOTE = 'With or without the $: we save it as $yourcashtag.';

export const PAYEE_MESSAGES = {
  cashtag: 'Enter a valid Cash App tag, like $yourcashtag',
  paypal: 'Enter a valid PayPal email',
  bep20Shape: 'Enter a valid BEP20 wallet address (0x followed by 40 hex characters)',
  bep20Checksum:
    'This BEP20 address has a typo: its capital letters do not match its checksum (EIP-55)',
  trc20Shape: 'Enter a valid TRC20 wallet address (34 characters starting with T)',
  trc20Checksum: 'This TRC20 address has a typo: its checksum does not match',
  accountDigits: 'Account number must be 4 to 17 digits',
  iban: 'This IBAN has a typo: its check digits do not match',
  usBankOnly:
    'Bank transfers are paid by ACH to US bank accounts only: enter your US account number (4 to 17 digits), not an IBAN',
  routingDigits: 'Routing number must be 9 digits',
  routingChecksum: 'This routing number has a typo: its check digit does not match',
} as const;

/**
 * Checks of the identifier beyond "required", so a payout is not sent into the void: the shape,
 * and the checksum where the format has one (decision 061). The message of the first that fails.
 */
const IDENTIFIER_CHECKS: Partial<Record<PaymentMethodType, [(v: string) => boolean, string][]>> = {
  cash_app: [[isCashtag, PAYEE_MESSAGES.cashtag]],
  paypal: [[isEmail, PAYEE_MESSAGES.paypal]],
  usdt_bep20: [
    [(v) => /^0x[0-9a-fA-F]{40}$/.test(v), PAYEE_MESSAGES.bep20Shape],
    [isEvmAddress, PAYEE_MESSAGES.bep20Checksum],
  ],
  usdt_trc20: [
    [(v) => /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(v), PAYEE_MESSAGES.trc20Shape],
    [isTronAddress, PAYEE_MESSAGES.trc20Checksum],
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
    // ACH to a US bank account only (decision 136): an account number and an ABA routing number.
    if (!input.accountNumber)
      issue('accountNumber', 'Account number is required for bank transfers');
    else if (looksLikeIban(input.accountNumber)) issue('accountNumber', PAYEE_MESSAGES.usBankOnly);
    else if (!/^\d{4,17}$/.test(input.accountNumber))
      issue('accountNumber', PAYEE_MESSAGES.accountDigits);
    if (!input.bankName) issue('bankName', 'Bank name is required for bank transfers');
    if (!input.routingNumber)
      issue('routingNumber', 'Routing number is required for bank transfers');
    else if (!/^\d{9}$/.test(input.routingNumber))
      issue('routingNumber', PAYEE_MESSAGES.routingDigits);
    else if (!isAbaRoutingNumber(input.routingNumber))
      issue('routingNumber', PAYEE_MESSAGES.routingChecksum);
    return;
  }
  if (!input.identifier) {
    issue('identifier', 'Account identifier is required');
    return;
  }
  const failed = IDENTIFIER_CHECKS[input.type]?.find(([ok]) => !ok(input.identifier!));
  if (failed) issue('identifier', failed[1]);
}

/** A Cash App tag as Cash App writes it: `$` and the tag, whether or not it was typed (decision 136). */
export const normaliseCashtag = (tag: string) => (tag.startsWith('$') ? tag : `$${tag}`);

/**
 * Only the fields of the chosen type are kept: a bank needs no identifier, a wallet no bank; a
 * Cash App tag is kept with its `$`.
 */
const keepTypesFields = <T extends Details>(input: T): T =>
  input.type === 'bank_transfer'
    ? { ...input, identifier: null }
    : {
        ...input,
        identifier:
          input.type === 'cash_app' && input.identifier
            ? normaliseCashtag(input.identifier)
            : input.identifier,
        accountNumber: null,
        bankName: null,
        routingNumber: null,
      };

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

/** A saved payment method as its owner, and staff on the customer page, see it. */
export const paymentMethodSchema = z.object({
  id: z.string(),
  type: z.string(),
  accountName: z.string(),
  identifier: z.string().nullable(),
  accountNumber: z.string().nullable(),
  bankName: z.string().nullable(),
  routingNumber: z.string().nullable(),
  isDefault: z.boolean(),
  createdAt: z.string(),
  /** When payouts to it may start (a new payee's hold, decision 072); null with the hold off. */
  payoutsFrom: z.string().nullable(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

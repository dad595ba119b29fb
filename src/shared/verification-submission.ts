import { z } from 'zod';
import { isCountryCode, REGION_REQUIRED } from './countries';
import { isCalendarDate } from './params';
import { DOCUMENT_TYPES } from './verification';

/**
 * POST /api/verification's body (decision 072), apart from verification.ts so that the country
 * list (i18n-iso-countries, issue 43 item 21) loads only where a submission is made or checked:
 * the server, the verification page and staff's verification tab.
 */
const DOCUMENT_PATH = /^\/objects\/verification\/[0-9a-f-]{36}\.[a-z0-9]{2,5}$/;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const country = z
  .string({ error: 'Country is required' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'Country must be a two-letter country code, such as US or GB')
  .refine(isCountryCode, 'Choose a country from the list');

const documentPath = (label: string) =>
  z
    .string({ error: `${label} must be an uploaded file` })
    .max(200, `${label} must be an uploaded file`)
    .refine(
      (path) => DOCUMENT_PATH.test(path),
      `${label} must be a file sent to /api/upload-verification-document`,
    );

export const identitySubmissionSchema = z.object({
  level: z.literal(1),
  legalFirstName: text('Legal first name', 100),
  legalLastName: text('Legal last name', 100),
  dateOfBirth: z
    .string({ error: 'Date of birth is required (YYYY-MM-DD)' })
    .refine(isCalendarDate, 'Date of birth must be a date written YYYY-MM-DD'),
  country,
  documentType: z.enum(DOCUMENT_TYPES, {
    error: `Document type must be one of: ${DOCUMENT_TYPES.join(', ')}`,
  }),
  documentImages: z
    .array(documentPath('Each document image'), { error: 'Add a photo of the document' })
    .min(1, 'Add a photo of the document')
    .max(2, 'At most 2 document photos: the front and the back'),
  selfieImage: documentPath('The selfie'),
});

export const addressSubmissionSchema = z.object({
  level: z.literal(2),
  addressLine1: text('Address', 200),
  addressLine2: z
    .string()
    .trim()
    .max(200, 'Address line 2 must be at most 200 characters')
    .optional()
    .nullable(),
  city: text('City', 100),
  /** State, province or region (issue 43 item 21): required where addresses need one. */
  region: z
    .string()
    .trim()
    .max(100, 'State or region must be at most 100 characters')
    .optional()
    .nullable()
    .transform((value) => (value ? value : null)),
  postalCode: text('Postal code', 20),
  country,
  proofImages: z
    .array(documentPath('Each proof of address'), { error: 'Add a proof of address' })
    .min(1, 'Add a proof of address')
    .max(3, 'At most 3 files for the proof of address'),
});

export const REGION_MISSING = 'State or region is required for an address in this country';

/** POST /api/verification: level 1 (identity) or level 2 (address). */
export const createVerificationSchema = z.discriminatedUnion(
  'level',
  [
    identitySubmissionSchema,
    addressSubmissionSchema.superRefine((input, ctx) => {
      if (!input.region && REGION_REQUIRED.includes(input.country)) {
        ctx.addIssue({ code: 'custom', path: ['region'], message: REGION_MISSING });
      }
    }),
  ],
  { error: 'level must be 1 (identity) or 2 (address)' },
);
export type CreateVerificationInput = z.infer<typeof createVerificationSchema>;

import { z } from 'zod';

/**
 * The emails a customer may turn off (issue 22, item 4). Everything else always goes out:
 * password resets, address confirmations, sign-in links, security alerts, offers needing an answer.
 */
export const OPTIONAL_EMAILS = ['statusUpdates', 'digests'] as const;
export type OptionalEmail = (typeof OPTIONAL_EMAILS)[number];

/** GET and PUT /api/account/email-preferences. */
export const emailPreferencesSchema = z.object({
  statusUpdates: z.boolean({ error: 'statusUpdates must be true or false' }),
  digests: z.boolean({ error: 'digests must be true or false' }),
});
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;

/** What each kind is, as the Profile switch and the unsubscribe page name it. */
export const OPTIONAL_EMAIL_LABELS: Record<OptionalEmail, { title: string; description: string }> =
  {
    statusUpdates: {
      title: 'Status updates',
      description: 'An email when staff change the status of a card or answer you.',
    },
    digests: {
      title: 'Digests',
      description: 'Occasional summaries of your activity.',
    },
  };

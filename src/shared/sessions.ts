import { z } from 'zod';

/** GET /api/sessions: one signed-in browser or device of the account. */
export const sessionSchema = z.object({
  id: z.string(),
  /** "Chrome 131", from the user agent; null when it does not say. */
  browser: z.string().nullable(),
  /** "Windows 10", "iOS 18.1". */
  system: z.string().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;

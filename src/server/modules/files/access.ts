import { type Capability, can } from '../../../shared/staff-roles';
import type { Account } from '../../common/account';
import type { OBJECT_FOLDERS } from '../../storage/object-storage';

interface ObjectRule {
  /** The account that uploaded the file. */
  uploader: boolean;
  /** The customer of the conversation the file was sent in (a file staff sent them). */
  conversation: boolean;
  /** Staff holding any of these capabilities (src/shared/staff-roles.ts). */
  staff: readonly Capability[];
}

/**
 * Who may fetch a stored file at `/objects/<folder>/<name>`, by its folder (issue 43, item 5;
 * decision 110): the one table the route reads. Anyone it does not name is answered 404, as if
 * the file did not exist; signed out is 401. Data exports are never served at `/objects`: only
 * `/api/account/exports/:id/download` serves one, to the customer whose export it is.
 */
export const OBJECT_ACCESS: Record<(typeof OBJECT_FOLDERS)[number], ObjectRule> = {
  /** Card photos and appeal photos: staff who read cards. */
  cards: { uploader: true, conversation: false, staff: ['cards.read'] },
  /** Chat and ticket attachments (decision 081): staff who answer chats and tickets. */
  chat: { uploader: true, conversation: true, staff: ['chat', 'tickets'] },
  /** Identity documents and proofs of address: staff who decide them, never the sender (072). */
  verification: { uploader: false, conversation: false, staff: ['verifications'] },
};

/** Whether `account` may fetch the stored upload, by the table above. */
export function mayFetchObject(
  account: Account,
  upload: {
    key: string;
    ownerUserId: string | null;
    ownerAdminId: string | null;
    conversationUserId: string | null;
  },
): boolean {
  const rule = OBJECT_ACCESS[upload.key.split('/')[0] as keyof typeof OBJECT_ACCESS];
  if (!rule) return false;
  const customer = account.kind === 'user';
  return (
    (rule.uploader && (customer ? upload.ownerUserId : upload.ownerAdminId) === account.id) ||
    (rule.conversation && customer && upload.conversationUserId === account.id) ||
    rule.staff.some((capability) => can(account.staffRole, capability))
  );
}

/**
 * Staff roles and what each may do (issue 21, decision 076): the one table the server's guard,
 * the portal's tabs and buttons, and the access-matrix test all read. Keyed by capability; each
 * `/api/admin` route names the one capability it needs (`config: { capability }`), and the
 * server refuses a role without it with 403 `{ code: 'forbidden_role' }`.
 */
export const STAFF_ROLES = ['owner', 'reviewer', 'support', 'finance'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  owner: 'Owner',
  reviewer: 'Reviewer',
  support: 'Support',
  finance: 'Finance',
};

/** Every capability, and the roles that hold it. The owner holds every one. */
export const CAPABILITIES = {
  /** The portal itself: the dashboard figures and review times every staff member sees. */
  'portal.read': ['owner', 'reviewer', 'support', 'finance'],
  /** The queue, a card and its timeline (read only). */
  'cards.read': ['owner', 'reviewer', 'support', 'finance'],
  /** A card's status, its revised offer and an appeal's decision. */
  'cards.review': ['owner', 'reviewer'],
  /** The customer list. */
  'users.read': ['owner', 'reviewer', 'support'],
  /** Suspend and reinstate a customer, and end their sessions. */
  'users.standing': ['owner', 'support'],
  /** Close a customer's account for good. */
  'users.close': ['owner'],
  /** Identity and address checks (verifications) and reading the level limits they unlock. */
  verifications: ['owner', 'reviewer'],
  /** Change the selling limits of a verification level. */
  'limits.manage': ['owner'],
  /** Read the rates and their history. */
  'rates.read': ['owner', 'reviewer', 'finance'],
  /** Change a brand's rate or minimum, or add a brand. */
  'rates.manage': ['owner'],
  /** Customers' chats: read, answer, mark read. */
  chat: ['owner', 'support'],
  /** Clear every chat. */
  'chat.clear': ['owner'],
  /** Support tickets: read, answer, open and close. */
  tickets: ['owner', 'support'],
  /** Pay or offer more than a card's value × its rate, with a reason (decision 106). */
  'cards.overpay': ['owner'],
  /** Payouts: the list, its CSV and marking them sent. */
  payouts: ['owner', 'finance'],
  /** The books: trial balance, entries, accounting export, clawbacks, write-offs, reconciliation. */
  books: ['owner', 'finance'],
  /** The Analytics tab: the business for owners and finance; a reviewer sees their own row. */
  analytics: ['owner', 'finance', 'reviewer'],
  /** Read the instant-decision policy (issue 41, decision 131). */
  'instant.read': ['owner', 'reviewer'],
  /** Set the instant-decision policy, or switch it off. */
  'instant.manage': ['owner'],
  /** Staff accounts: list, invite, change a role, deactivate. */
  'staff.manage': ['owner'],
} as const satisfies Record<string, readonly StaffRole[]>;

export type Capability = keyof typeof CAPABILITIES;

export const isStaffRole = (value: unknown): value is StaffRole =>
  STAFF_ROLES.includes(value as StaffRole);

/** Whether a staff member of `role` may do what `capability` names (no role: nothing). */
export function can(role: StaffRole | null | undefined, capability: Capability): boolean {
  if (!role) return false;
  return (CAPABILITIES[capability] as readonly StaffRole[]).includes(role);
}

export const FORBIDDEN_ROLE = 'forbidden_role';
export const forbiddenRoleMessage = (role: StaffRole) =>
  `Your role (${STAFF_ROLE_LABELS[role]}) cannot do this.`;

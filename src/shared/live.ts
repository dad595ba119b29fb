/**
 * What can change, by name: the server bumps a topic when it writes, answers unchanged polls from
 * memory, and tells open pages which topics changed through GET /api/events.
 */
export const CUSTOMER_TOPICS = [
  'transactions',
  'stats',
  'chat',
  'tickets',
  'payment-methods',
  'account',
  'notifications',
  'rates',
] as const;

/** Staff share one view of the exchange: every staff account sees these change together. */
export const STAFF_TOPICS = [
  'queue',
  'admin-stats',
  'users',
  'chats',
  'staff-tickets',
  'rates',
] as const;

export type CustomerTopic = (typeof CUSTOMER_TOPICS)[number];
export type StaffTopic = (typeof STAFF_TOPICS)[number];
export type LiveTopic = CustomerTopic | StaffTopic;

export const EVENTS_PATH = '/api/events';

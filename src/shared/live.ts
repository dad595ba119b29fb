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

/**
 * The one table of which answers each topic's change makes stale: the server caches each of these
 * GET routes under its topic (the route's `config.live`; a test holds the two equal), and the
 * client refetches the queries whose keys start with them when the topic's event arrives.
 */
export const TOPIC_URLS: Readonly<Record<LiveTopic, readonly string[]>> = {
  transactions: ['/api/transactions', '/api/transactions/recent'],
  stats: ['/api/stats', '/api/stats/earnings', '/api/balance', '/api/balance/statement'],
  chat: ['/api/chat/messages'],
  tickets: ['/api/support-tickets'],
  'payment-methods': ['/api/payment-methods'],
  account: [
    '/api/auth/user',
    '/api/account/email-preferences',
    '/api/account/exports',
    '/api/two-factor',
  ],
  notifications: ['/api/notifications'],
  rates: ['/api/rates', '/api/admin/rates', '/api/admin/rates/history'],
  queue: ['/api/admin/transactions', '/api/admin/payouts'],
  'admin-stats': ['/api/admin/stats'],
  users: ['/api/admin/users'],
  chats: ['/api/admin/conversations', '/api/admin/chats'],
  'staff-tickets': ['/api/admin/support-tickets'],
};

/** The spec's polls, each with its interval (section 9): what a signed-in browser asks for. */
export const POLLS = [
  { path: '/api/stats', everyMs: 10_000 },
  { path: '/api/transactions/recent', everyMs: 5_000 },
  { path: '/api/transactions', everyMs: 5_000 },
  { path: '/api/chat/messages', everyMs: 3_000 },
];

/** What one process of scripts/lib/poller.mjs sends back. */
export interface PollerResult {
  /** [sent at (ms into the polling), ms, kind, index in POLLS] */
  answers: [number, number, string, number][];
  statuses: Record<string, number>;
  networkErrors: number;
  /** Ticks that sent nothing: that customer's last poll of the path was still out. */
  skipped: number;
  /** The share of its time the generator's process spent on the CPU. */
  busy: number;
}

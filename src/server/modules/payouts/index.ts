/**
 * The payouts module's public entry (issue 40): the automatic payout queue the server runs on a
 * timer. Its routes are registered by app.ts.
 */
export { payEvmPayouts, queueAutomaticPayouts } from './commands';

/**
 * Verification's public entry: a card's submission, and an appeal's overturn, count against the
 * selling limits of the customer's level (cards); the job deletes decided documents.
 */
export { deleteExpiredVerificationDocuments } from './commands';
export { verificationState } from './queries';
export { sellingLimitRefusal } from './selling-limits';

/**
 * The cards module's public entry: a card's whole lifecycle lives in this module, whoever acts
 * (customer, staff, a job, payouts, an account's closing, privacy), and every change of its
 * lifecycle or money goes through changeCard (change.ts). Other modules use what is exported here.
 */
export { rejectPendingCards } from './account-standing';
export { decideAppeal } from './appeals';
export { resealCardCodes, revealCardCode } from './card-code';
export { CARD_TOPICS, type Card, lockCard } from './change';
export { claimCard, releaseClaim } from './claims';
export { takeBack, writeOff } from './clawbacks';
export { AWAITING_PAYMENT, PAID, PAYOUT_DUE, PAYOUT_DUE_TEXT, payeeColumns } from './columns';
export { eraseCustomerWords } from './erasure';
export { instantPolicy, reviewSample, setInstantPolicy } from './instant';
export { expireOffers, makeOffer } from './offers';
export { overValueOf } from './over-value';
export { partnerCard, partnerCards } from './partner';
export { confirmPaymentSeen, markPayoutsSent } from './payment';
export {
  HOLD_MESSAGES,
  type HoldRules,
  holdColumns,
  holdOf,
  holdRulesOf,
  payoutBlocks,
  SUSPENDED_PAYOUT,
} from './payout-holds';
export {
  lockCardsForPayout,
  markCardsConfirmed,
  markCardsFailed,
  markCardsSubmitted,
  recordPayoutQueued,
} from './payout-rail';
export { listTransactions, transactionStats } from './queries';
export {
  findAdminTransaction,
  listAdminTransactions,
  removedImagesOf,
  transactionAudit,
} from './queue';
export { queuePlacesOf } from './queue-places';
export { updateTransactionAsStaff } from './review';
export { recordScamCheckRefusal, submitCard } from './submit';
export { cardTimeline } from './timeline';

/**
 * The books (issue 39, decision 093): what other modules may use. The card's commands post its
 * money through `postCardMoney`; reads answer balances, statements and the staff's books.
 */
export { impliedByCard, lockSeller, owedCards, postCardMoney } from './cards';
export { checkLedger, describeMismatch, type Mismatch } from './check';
export {
  appealableClawbacks,
  clawbacksOf,
  recordClawback,
  reverseClawbacks,
  takenBackFrom,
  writeOffClawback,
} from './clawbacks';
export { statementCsvRows, wholeStatement } from './export';
export { checkBooks, foldLedgerDays } from './jobs';
export { move, postEntry } from './post';
export {
  balanceOf,
  books,
  figureColumns,
  ledgerEntriesOf,
  NO_FIGURES,
  owedForCard,
  type SellerFigures,
  sellerFigures,
  sellerMoneyColumns,
  sentFor,
  statementOf,
  type ToSend,
  toBalance,
  toSendFor,
  trialBalance,
} from './queries';

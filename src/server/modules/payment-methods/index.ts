/** The payment methods' public entry: a card's submission reads the payee's method (cards). */
export { findUsablePaymentMethod, listPaymentMethods, toPaymentMethod } from './queries';

/**
 * The rates' public entry: a card's submission is quoted at the brand's terms (cards), and a
 * partner's quote too (partner).
 */
export { belowMinimum, rateChanged, termsForSubmission } from './queries';

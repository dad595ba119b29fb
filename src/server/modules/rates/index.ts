/** The rates' public entry: a card's submission is quoted at the brand's terms (cards). */
export { belowMinimum, rateChanged, termsForSubmission } from './queries';

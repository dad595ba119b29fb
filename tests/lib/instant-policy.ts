/** The instant-decision policy the app starts with (decision 150): off, with its default limits. */
export const INSTANT_POLICY_OFF = {
  enabled: false,
  minLevel: 2,
  minCompletedCards: 10,
  maxCardValue: '200.00',
  maxDailyTotal: '500.00',
  brands: [],
  sampleRate: 0.1,
};

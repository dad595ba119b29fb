import { OTHER_BRAND } from './rates';

/**
 * Brand rates of spec section 9 (fraction of face value), as decimal strings: money and rates
 * are never floats. The order is the rate table's: highest rate first, then as listed. This is
 * the seed of the staff-managed `brand_rates` table (migration 0012); the app reads the current
 * terms from GET /api/rates.
 */
const RATE_TABLE: ReadonlyArray<readonly [rate: string, brands: readonly string[]]> = [
  ['0.91', ['Amazon', 'Visa']],
  ['0.90', ['iTunes', 'Mastercard']],
  ['0.89', ['Walmart', 'Google Play', 'Microsoft', 'Onevanilla']],
  [
    '0.88',
    [
      'Target',
      'Starbucks',
      'Xbox',
      'PlayStation',
      'Nintendo',
      'Lululemon',
      'Airbnb',
      'Ebay',
      'Disney',
    ],
  ],
  [
    '0.87',
    [
      'Best Buy',
      'Nike',
      'Adidas',
      'Steam',
      'Nordstrom',
      'Verizon',
      'Razer Gold',
      'Hotels.com',
      'GameStop',
      'Delta Airline',
      'Saks 5th Ave',
    ],
  ],
  [
    '0.86',
    [
      'Home Depot',
      "Lowe's",
      'Sephora',
      'Ulta',
      'Macy',
      'Footlocker',
      'Dicks Sporting',
      'Uber',
      'Doordash',
      'InstaCart',
      'Ticketmaster',
      'One4All',
    ],
  ],
  ['0.85', ['Kohls', 'Gap', 'Old Navy', 'H&M', 'CVS', 'Belk']],
];

export { OTHER_BRAND } from './rates';
/** The rate for unlisted brands and Other. */
export const DEFAULT_RATE = '0.85';

/** The 47 entries of the brand list, ending with Other. */
export const BRANDS: readonly string[] = [
  ...RATE_TABLE.flatMap(([, brands]) => brands),
  OTHER_BRAND,
];

const RATES = new Map(
  RATE_TABLE.flatMap(([rate, brands]) => brands.map((b) => [b, rate] as const)),
);

export function brandRate(cardType: string): string {
  return RATES.get(cardType) ?? DEFAULT_RATE;
}

const LOW_MINIMUM_BRANDS = new Set(['iTunes', 'Amazon', 'Xbox', 'Walmart']);

/** The seed's minimum card value: 25 for iTunes, Amazon, Xbox and Walmart, 50 for all others. */
export const seedMinimum = (brand: string) => (LOW_MINIMUM_BRANDS.has(brand) ? '25.00' : '50.00');

/** The rate as a whole percent, e.g. '0.91' -> 91. */
export function ratePercent(rate: string): number {
  return Math.round(Number(rate) * 100);
}

/**
 * Each brand as the brand writes itself (issue 43, item 23; decision 141). The stored keys (the
 * spec's list, on every card and in `brand_rates`) stay as they are; only what people read
 * changes. A brand not listed here is shown as stored (a customer's own "Other" brand too).
 */
const BRAND_SPELLINGS: Readonly<Record<string, string>> = {
  Onevanilla: 'OneVanilla',
  Ebay: 'eBay',
  'Delta Airline': 'Delta Air Lines',
  'Saks 5th Ave': 'Saks Fifth Avenue',
  Macy: "Macy's",
  Footlocker: 'Foot Locker',
  'Dicks Sporting': "DICK'S Sporting Goods",
  Doordash: 'DoorDash',
  InstaCart: 'Instacart',
  Kohls: "Kohl's",
};

/** The name to show for a stored brand key. */
export const brandName = (cardType: string) => BRAND_SPELLINGS[cardType] ?? cardType;

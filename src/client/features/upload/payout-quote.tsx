import { brandName, ratePercent } from '@shared/brands';
import { cardValueProblem, minimumAmount, quote } from '@shared/card-rules';
import { formatMoney } from '@shared/money';
import { type BrandRate, tierFor, tierLabel } from '@shared/rates';
import { Card, CardContent } from '@/components/ui/card';

/**
 * The live quote: value × the rate of the tier that applies (decision 130), else the brand rate,
 * to 2 decimals; the tier named as "E-code, $100–$499: 82%".
 */
export function PayoutQuote({
  cardType,
  cardValue,
  cardFormat,
  terms,
  retired,
}: {
  cardType: string;
  cardValue: string;
  cardFormat: string | undefined;
  terms: BrandRate | undefined;
  /** The chosen brand left the list while the form was open. */
  retired: boolean;
}) {
  // With the brand and a value under its minimum, the quote says what the brand starts at
  // rather than asking again for what the seller already entered (issue 43, 20); the field
  // says what is wrong with any other value.
  const belowMinimum =
    cardType !== '' &&
    !!terms &&
    cardValueProblem(cardValue, terms.minimum) !== null &&
    cardValueProblem(cardValue) === null;
  const valid = cardType !== '' && !!terms && cardValueProblem(cardValue, terms.minimum) === null;
  const tier = valid && terms ? tierFor(terms, cardFormat, cardValue) : null;
  const q = valid && terms ? quote(tier?.rate ?? terms.rate, cardValue.trim()) : null;
  return (
    <Card className="border-primary/30 bg-primary/5" data-testid="payout-quote">
      <CardContent className="p-5">
        <p className="text-sm font-medium text-muted-foreground">Expected payout</p>
        {q ? (
          <>
            <p
              className="mt-1 text-3xl font-bold tabular-nums text-primary"
              data-testid="expected-payout"
            >
              {formatMoney(q.expectedPayout)}
            </p>
            <p className="mt-1 text-sm" data-testid="payout-rate">
              {ratePercent(q.rate)}% rate for {brandName(cardType)}
            </p>
            {tier && (
              <p className="mt-1 text-xs text-muted-foreground" data-testid="rate-tier">
                {tierLabel(tier)}
              </p>
            )}
          </>
        ) : retired ? (
          <p className="mt-2 text-sm font-medium text-destructive" role="alert">
            We no longer buy {brandName(cardType)} gift cards. Please choose another brand.
          </p>
        ) : belowMinimum && terms ? (
          <p className="mt-2 text-sm font-medium" data-testid="quote-problem">
            We buy {brandName(cardType)} cards from {minimumAmount(terms.minimum)}.
          </p>
        ) : (
          <p className="mt-2 text-sm text-muted-foreground">
            Choose the brand and enter the card value to see what you will be paid.
          </p>
        )}
        <p className="mt-3 border-t pt-3 text-xs text-muted-foreground">
          The rate shown when you submit is the rate we honour.
        </p>
      </CardContent>
    </Card>
  );
}

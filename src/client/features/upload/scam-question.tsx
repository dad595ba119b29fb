import { FTC_GIFT_CARD_ADVICE_URL, SCAM_QUESTION } from '@shared/fair-dealing';
import { OctagonAlertIcon } from 'lucide-react';
import { Link } from 'wouter';
import { RadioGroup, RadioTile } from '@/components/ui/radio-group';

/**
 * "Did someone you don't know ask you to buy this card to pay them?" (decision 073). Yes stops
 * the sale: gift cards are the payment scammers ask for most, and a victim can still keep the
 * card and report it.
 */
export function ScamQuestion({
  value,
  error,
  onChange,
}: {
  value: 'no' | 'yes' | undefined;
  error?: string;
  onChange: (answer: 'no' | 'yes') => void;
}) {
  return (
    <fieldset className="grid gap-2" id="scam-check" data-testid="scam-question">
      <legend className="mb-2 text-sm font-medium">{SCAM_QUESTION}</legend>
      <RadioGroup
        value={value ?? ''}
        onValueChange={(v) => onChange(v as 'no' | 'yes')}
        className="grid-cols-2"
        aria-label="Did a stranger ask you to buy this card to pay them?"
        aria-describedby={error ? 'scam-check-error' : undefined}
      >
        <RadioTile value="no">No</RadioTile>
        <RadioTile value="yes">Yes</RadioTile>
      </RadioGroup>
      {error && (
        <p id="scam-check-error" role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      {value === 'yes' && (
        <div
          role="alert"
          data-testid="scam-stop"
          className="grid gap-2 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-950 dark:border-red-400/30 dark:bg-red-400/10 dark:text-red-100"
        >
          <p className="flex items-center gap-2 font-semibold">
            <OctagonAlertIcon className="size-4 shrink-0" /> Stop: this is a scam
          </p>
          <p>
            No real tax office, utility, court, tech support or prize ever asks to be paid with gift
            cards. Whoever asked you wants the code on this card. Do not send it to them, and do not
            sell it here: keep the card and its receipt, and contact the card’s brand quickly, as
            they may be able to freeze the funds.
          </p>
          <p className="flex flex-wrap gap-x-4 gap-y-1">
            <a
              href={FTC_GIFT_CARD_ADVICE_URL}
              target="_blank"
              rel="noreferrer"
              className="font-semibold underline underline-offset-2"
            >
              The FTC’s advice on gift card scams
            </a>
            <Link href="/support" className="font-semibold underline underline-offset-2">
              Contact Support
            </Link>
          </p>
        </div>
      )}
    </fieldset>
  );
}

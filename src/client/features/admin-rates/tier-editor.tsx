import {
  MAX_TIERS,
  type RateTier,
  TIER_FORMAT_LABELS,
  TIER_FORMATS,
  type TierFormat,
} from '@shared/rates';
import { PlusIcon, Trash2Icon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';

/** A tier as staff type it: the top of the band empty for "and up". */
export interface TierDraft {
  key: number;
  format: TierFormat;
  minValue: string;
  maxValue: string;
  rate: string;
}

let nextKey = 0;
export const toTierDrafts = (tiers: readonly RateTier[]): TierDraft[] =>
  tiers.map((t) => ({
    key: nextKey++,
    format: t.format,
    minValue: t.minValue,
    maxValue: t.maxValue ?? '',
    rate: t.rate,
  }));

/** The drafts as PUT /api/admin/rates/:brand takes them (the server checks them all). */
export const toTierInput = (drafts: readonly TierDraft[]): RateTier[] =>
  drafts.map((d) => ({
    format: d.format,
    minValue: d.minValue.trim(),
    maxValue: d.maxValue.trim() === '' ? null : d.maxValue.trim(),
    rate: d.rate.trim(),
  }));

/**
 * A brand's rate tiers (issue 41, decision 130): format × value band × rate, added, edited and
 * removed here and saved whole with the brand's terms. The server's messages show under the
 * field they name (`tiers.0.maxValue`) or under the list (an overlap).
 */
export function TierEditor({
  tiers,
  onChange,
  errors,
}: {
  tiers: TierDraft[];
  onChange: (tiers: TierDraft[]) => void;
  errors: Record<string, string>;
}) {
  const set = (key: number, change: Partial<TierDraft>) =>
    onChange(tiers.map((t) => (t.key === key ? { ...t, ...change } : t)));
  const listError = errors.tiers;
  return (
    <fieldset className="grid gap-3" data-testid="tier-editor" aria-describedby="tiers-help">
      <legend className="text-sm font-medium">Tiers by format and card value</legend>
      <p id="tiers-help" className="text-xs text-muted-foreground">
        A card in a tier’s band is bought at its rate; the card’s own format wins over “Any format”.
        Both ends of a band count; leave “Up to” empty for no top. Without a tier the brand rate
        applies.
      </p>
      {tiers.length === 0 && (
        <p className="text-sm text-muted-foreground" data-testid="no-tiers">
          No tiers: every card of this brand gets the brand rate.
        </p>
      )}
      <ul className="grid gap-3">
        {tiers.map((tier, i) => {
          const id = `tier-${tier.key}`;
          const error = (field: string) => errors[`tiers.${i}.${field}`];
          return (
            <li
              key={tier.key}
              className="grid gap-3 rounded-lg border p-3 sm:grid-cols-[9rem_1fr_1fr_1fr_auto] sm:items-start"
              data-testid="tier-row"
              aria-label={`Tier ${i + 1}`}
            >
              <Field id={`${id}-format`} label="Format" error={error('format')}>
                <NativeSelect
                  id={`${id}-format`}
                  value={tier.format}
                  onChange={(e) => set(tier.key, { format: e.target.value as TierFormat })}
                >
                  {TIER_FORMATS.map((f) => (
                    <option key={f} value={f}>
                      {TIER_FORMAT_LABELS[f]}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <TextField
                id={`${id}-min`}
                label="From ($)"
                inputMode="decimal"
                value={tier.minValue}
                error={error('minValue')}
                onChange={(e) => set(tier.key, { minValue: e.target.value })}
              />
              <TextField
                id={`${id}-max`}
                label="Up to ($)"
                inputMode="decimal"
                placeholder="No top"
                value={tier.maxValue}
                error={error('maxValue')}
                onChange={(e) => set(tier.key, { maxValue: e.target.value })}
              />
              <TextField
                id={`${id}-rate`}
                label="Rate"
                inputMode="decimal"
                value={tier.rate}
                error={error('rate')}
                onChange={(e) => set(tier.key, { rate: e.target.value })}
              />
              <Button
                type="button"
                variant="ghost"
                size="sm"
                className="justify-self-start sm:mt-7"
                onClick={() => onChange(tiers.filter((t) => t.key !== tier.key))}
                aria-label={`Remove tier ${i + 1}`}
              >
                <Trash2Icon /> <span className="sm:sr-only">Remove</span>
              </Button>
            </li>
          );
        })}
      </ul>
      {listError && (
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="tiers-error">
          {listError}
        </p>
      )}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={tiers.length >= MAX_TIERS}
          onClick={() =>
            onChange([
              ...tiers,
              { key: nextKey++, format: 'any', minValue: '', maxValue: '', rate: '' },
            ])
          }
          data-testid="add-tier"
        >
          <PlusIcon /> Add tier
        </Button>
      </div>
    </fieldset>
  );
}

import { brandName } from '@shared/brands';
import {
  CARD_CODE_MAX_LENGTH,
  CARD_CONDITION_LABELS,
  CARD_CONDITIONS,
  CARD_FORMAT_LABELS,
  CARD_FORMATS,
  minimumAmount,
  type UploadFormValues,
} from '@shared/card-rules';
import { type BrandRate, OTHER_BRAND } from '@shared/rates';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { FormTextField } from '@/components/form-text-field';
import { SecretInput } from '@/components/secret-input';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { RadioGroup, RadioTile } from '@/components/ui/radio-group';

/** The card itself: brand (or a custom type), value, condition, format and its code. */
export function CardFields({
  form,
  rates,
  typeForQuote,
  terms,
}: {
  form: UseFormReturn<UploadFormValues>;
  rates: readonly BrandRate[];
  /** The type the quote is for: the brand, or the custom type typed for Other. */
  typeForQuote: string;
  terms: BrandRate | undefined;
}) {
  const { errors } = form.formState;
  const cardType = form.watch('cardType');
  return (
    <>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="cardType" label="Gift Card Brand" error={errors.cardType?.message}>
          <NativeSelect
            id="cardType"
            aria-invalid={!!errors.cardType}
            {...form.register('cardType')}
          >
            <option value="">Select a brand</option>
            {rates.map(({ brand }) => (
              <option key={brand} value={brand}>
                {brandName(brand)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {cardType === OTHER_BRAND && (
          <FormTextField
            form={form}
            name="customCardType"
            id="customCardType"
            label="Gift Card Type"
            placeholder="e.g. Panera Bread"
          />
        )}
        <Field
          id="cardValue"
          label="Card Value (USD)"
          error={errors.cardValue?.message}
          hint={
            typeForQuote && terms
              ? `Minimum ${minimumAmount(terms.minimum)} for this card`
              : undefined
          }
        >
          <div className="relative">
            <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-muted-foreground">
              $
            </span>
            <Input
              id="cardValue"
              inputMode="decimal"
              className="pl-7"
              aria-invalid={!!errors.cardValue}
              {...form.register('cardValue')}
            />
          </div>
        </Field>
      </div>
      <ChoiceField
        name="cardCondition"
        label="Card Condition"
        options={CARD_CONDITIONS.map((v) => [v, CARD_CONDITION_LABELS[v]])}
        control={form.control}
        error={errors.cardCondition?.message}
      />
      <ChoiceField
        name="cardFormat"
        label="Card Format"
        options={CARD_FORMATS.map((v) => [v, CARD_FORMAT_LABELS[v]])}
        control={form.control}
        error={errors.cardFormat?.message}
      />
      <Field
        id="cardCode"
        label="Card code / PIN (optional)"
        error={errors.cardCode?.message}
        hint="For e-gift cards. Stored encrypted; only our reviewers can read it."
      >
        <SecretInput
          id="cardCode"
          showLabel="Show the card code"
          maxLength={CARD_CODE_MAX_LENGTH}
          aria-invalid={!!errors.cardCode}
          {...form.register('cardCode')}
        />
      </Field>
    </>
  );
}

function ChoiceField({
  name,
  label,
  options,
  control,
  error,
}: {
  name: 'cardCondition' | 'cardFormat';
  label: string;
  options: [string, string][];
  control: UseFormReturn<UploadFormValues>['control'];
  error?: string;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">{label}</legend>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <RadioGroup
            value={field.value ?? ''}
            onValueChange={field.onChange}
            className="grid-cols-2"
            aria-label={label}
          >
            {options.map(([value, text]) => (
              <RadioTile key={value} value={value}>
                {text}
              </RadioTile>
            ))}
          </RadioGroup>
        )}
      />
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

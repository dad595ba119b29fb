import { ratePercent } from '@shared/brands';
import {
  CARD_CODE_MAX_LENGTH,
  CARD_CONDITION_LABELS,
  CARD_CONDITIONS,
  CARD_FORMAT_LABELS,
  CARD_FORMATS,
  cardValueProblem,
  effectiveCardType,
  minimumAmount,
  quote,
  type UploadFormValues,
  uploadFormProblems,
} from '@shared/card-rules';
import { FTC_GIFT_CARD_ADVICE_URL, SCAM_QUESTION } from '@shared/fair-dealing';
import { formatMoney, fromCents, MONEY_PATTERN, toCents } from '@shared/money';
import { paymentMethodLabel } from '@shared/payment-methods';
import { type BrandRate, OTHER_BRAND, termsFor } from '@shared/rates';
import type { Transaction } from '@shared/transactions';
import { LIMIT_REFUSAL_CODE, VERIFY_NEXT, type VerificationState } from '@shared/verification';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  AlertTriangleIcon,
  BadgeCheckIcon,
  CheckCircle2Icon,
  Loader2Icon,
  OctagonAlertIcon,
  ShieldCheckIcon,
} from 'lucide-react';
import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { ReviewTimeLine } from '@/components/fair/review-time';
import { FormTextField } from '@/components/form-text-field';
import { PageHeader } from '@/components/page-header';
import { paymentMethodDetail } from '@/components/payment-methods/payment-method-list';
import { usePaymentMethods } from '@/components/payment-methods/use-payment-methods';
import { SecretInput } from '@/components/secret-input';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { RadioGroup, RadioTile } from '@/components/ui/radio-group';
import { TextareaField } from '@/components/ui/text-field';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { problemsResolver } from '@/lib/form';
import { ratesQuery, refresh, refreshAfterSubmission, verificationQuery } from '@/lib/queries';
import { toast } from '@/lib/toast';
import { uploadFile } from '@/lib/upload';
import { useCustomerOnly } from '@/lib/use-customer-only';
import { ImagePicker, type PickedFile } from './image-picker';

/**
 * The terms a card is quoted on: a listed brand's own, Other's for a custom type. Undefined when
 * the chosen brand left the list while the form was open (or the list is still loading).
 */
function termsOf(
  rates: readonly BrandRate[],
  values: Pick<UploadFormValues, 'cardType' | 'customCardType'>,
) {
  if (!values.cardType) return undefined;
  return values.cardType === OTHER_BRAND
    ? termsFor(rates, values.customCardType)
    : rates.find((r) => r.brand === values.cardType);
}

const EMPTY: UploadFormValues = {
  cardType: '',
  customCardType: '',
  cardValue: '',
  cardCondition: undefined,
  cardFormat: undefined,
  paymentMethodId: '',
  notes: '',
  cardCode: '',
};

type Phase = 'form' | 'uploading' | 'success';

export function UploadPage() {
  const allowed = useCustomerOnly('Admins cannot upload gift cards');
  const [phase, setPhase] = React.useState<Phase>('form');
  const [formKey, setFormKey] = React.useState(0);
  if (!allowed) return null;
  return (
    <div>
      <PageHeader
        title="Upload Gift Card"
        description="Enter your card details and photos to get paid."
      />
      {phase === 'success' ? (
        <UploadSuccess
          onAnother={() => {
            setFormKey((k) => k + 1);
            setPhase('form');
          }}
        />
      ) : (
        <UploadForm key={formKey} uploading={phase === 'uploading'} onPhase={setPhase} />
      )}
    </div>
  );
}

function UploadForm({
  uploading,
  onPhase,
}: {
  uploading: boolean;
  onPhase: (phase: Phase) => void;
}) {
  const methods = usePaymentMethods();
  const hasMethods = (methods.data?.length ?? 0) > 0;
  const { user } = useAuth();
  const suspended = user?.standing === 'suspended';
  // What the customer may still submit (decision 072), shown before they type a value.
  const allowance = useQuery(verificationQuery()).data;
  // The brands and their terms are staff-managed: read from the server, refreshed when changed.
  const rates = useQuery(ratesQuery()).data ?? [];
  const ratesRef = React.useRef(rates);
  ratesRef.current = rates;
  const [files, setFiles] = React.useState<PickedFile[]>([]);
  // The scam question (decision 073): answered before a card is bought; "yes" stops here.
  const [scamCheck, setScamCheck] = React.useState<'no' | 'yes' | undefined>();
  const [scamError, setScamError] = React.useState<string>();
  const form = useForm<UploadFormValues>({
    resolver: problemsResolver((values: UploadFormValues) =>
      uploadFormProblems(values, (type) => termsFor(ratesRef.current, type)?.minimum),
    ),
    defaultValues: EMPTY,
  });
  const { errors } = form.formState;

  // Preselect the default payment method once the list arrives.
  React.useEffect(() => {
    const preferred = methods.data?.find((m) => m.isDefault) ?? methods.data?.[0];
    if (preferred && !form.getValues('paymentMethodId'))
      form.setValue('paymentMethodId', preferred.id);
  }, [methods.data, form]);

  const submit = useMutation({
    mutationFn: async (values: UploadFormValues) => {
      const imageUrls: string[] = [];
      for (const picked of files) {
        if (!picked.objectPath) {
          const { objectPath } = await uploadFile<{ objectPath: string }>(
            '/api/upload-card-image',
            picked.file,
            (progress) =>
              setFiles((all) => all.map((f) => (f.id === picked.id ? { ...f, progress } : f))),
          ).catch((error: Error) => {
            throw Object.assign(error, { fileUpload: true });
          });
          setFiles((all) => all.map((f) => (f.id === picked.id ? { ...f, objectPath } : f)));
          imageUrls.push(objectPath);
        } else {
          imageUrls.push(picked.objectPath);
        }
      }
      const res = await apiRequest('POST', '/api/transactions', {
        cardType: effectiveCardType(values),
        cardValue: values.cardValue.trim(),
        cardCondition: values.cardCondition,
        cardFormat: values.cardFormat,
        paymentMethodId: values.paymentMethodId,
        notes: values.notes.trim() || null,
        cardCode: values.cardCode.trim() || null,
        imageUrls,
        // The rate on screen: if staff changed it since, the server says so (409) instead.
        quotedRate: termsOf(ratesRef.current, values)?.rate,
        scamCheck,
      });
      return (await res.json()) as Transaction;
    },
    onMutate: () => onPhase('uploading'),
    onSuccess: async () => {
      await refreshAfterSubmission();
      void refresh(verificationQuery().queryKey);
      toast({
        title: 'Gift card submitted',
        description: 'Your gift card has been submitted for review.',
      });
      onPhase('success');
    },
    onError: (error: Error & { fileUpload?: boolean }) => {
      onPhase('form');
      if (error instanceof ApiError && error.status === 403) {
        // Over a selling limit, or suspended: the server says which and what to do.
        void refresh(verificationQuery().queryKey);
        toast({
          title:
            error.code === LIMIT_REFUSAL_CODE
              ? 'Over your selling limit'
              : 'You cannot submit cards',
          description: serverMessage(error),
          variant: 'destructive',
        });
        return;
      }
      if (error instanceof ApiError && error.status === 409) {
        // The rate changed since the form showed it: show the new quote and let them decide.
        void refresh(ratesQuery().queryKey);
        toast({
          title: 'The rate changed',
          description: serverMessage(error),
          variant: 'destructive',
        });
        return;
      }
      toast({
        title: 'Upload failed',
        description: error.fileUpload
          ? error.message
          : (serverMessage(error) ?? 'Failed to upload gift card. Please try again.'),
        variant: 'destructive',
      });
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    if (!scamCheck) {
      setScamError('Please answer this question');
      document.getElementById('scam-check')?.scrollIntoView({ block: 'center' });
      return;
    }
    if (scamCheck === 'yes') return;
    if (files.length === 0) {
      toast({
        title: 'Missing Image',
        description: 'Please upload at least one gift card image',
        variant: 'destructive',
      });
      return;
    }
    submit.mutate(values);
  });

  const cardType = form.watch('cardType');
  const customCardType = form.watch('customCardType');
  const cardValue = form.watch('cardValue');
  const typeForQuote = effectiveCardType({ cardType, customCardType });
  const terms = termsOf(rates, { cardType, customCardType });

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="grid gap-6">
        {!methods.isLoading && !hasMethods && (
          <div
            role="alert"
            data-testid="no-payment-method-banner"
            className="flex gap-3 rounded-lg border border-yellow-300 bg-yellow-50 p-4 text-yellow-900 dark:border-yellow-400/30 dark:bg-yellow-400/10 dark:text-yellow-200"
          >
            <AlertTriangleIcon className="mt-0.5 size-5 shrink-0" />
            <div className="text-sm">
              <p className="font-semibold">Add a payment method first</p>
              <p className="mt-0.5">
                We need to know where to send your money.{' '}
                <Link
                  href="/payment-methods"
                  className="font-semibold underline underline-offset-2"
                >
                  Add a payment method
                </Link>
              </p>
            </div>
          </div>
        )}
        {allowance && !suspended && <AllowanceNote state={allowance} cardValue={cardValue} />}
        <Card>
          <CardHeader>
            <CardTitle>Card details</CardTitle>
            <CardDescription>Everything we need to verify the card.</CardDescription>
          </CardHeader>
          <CardContent>
            <form id="upload-form" className="grid gap-5" noValidate onSubmit={onSubmit}>
              <fieldset disabled={uploading || suspended} className="grid gap-5">
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
                          {brand}
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
                <Field
                  id="paymentMethodId"
                  label="Payment Method"
                  error={errors.paymentMethodId?.message}
                  hint={
                    !hasMethods && !methods.isLoading
                      ? 'You must add a payment method before uploading'
                      : undefined
                  }
                >
                  <NativeSelect
                    id="paymentMethodId"
                    aria-invalid={!!errors.paymentMethodId}
                    {...form.register('paymentMethodId')}
                  >
                    {hasMethods ? (
                      methods.data!.map((m) => (
                        <option key={m.id} value={m.id}>
                          {paymentMethodLabel(m.type)} · {m.accountName} · {paymentMethodDetail(m)}
                          {m.isDefault ? ' (default)' : ''}
                        </option>
                      ))
                    ) : (
                      <option value="">No payment methods available</option>
                    )}
                  </NativeSelect>
                </Field>
                <TextareaField
                  id="notes"
                  label="Notes (optional)"
                  error={errors.notes?.message}
                  placeholder="Anything our reviewers should know, such as where you bought it (the code goes above)"
                  {...form.register('notes')}
                />
                <div className="grid gap-2">
                  <span className="text-sm font-medium">Gift Card Images</span>
                  <ImagePicker files={files} onChange={setFiles} disabled={uploading} />
                </div>
                <ScamQuestion
                  value={scamCheck}
                  error={scamError}
                  onChange={(answer) => {
                    setScamCheck(answer);
                    setScamError(undefined);
                  }}
                />
              </fieldset>
            </form>
          </CardContent>
        </Card>
      </div>
      <aside className="lg:sticky lg:top-20 lg:self-start">
        <PayoutQuote
          cardType={typeForQuote}
          cardValue={cardValue}
          terms={terms}
          retired={!!cardType && cardType !== OTHER_BRAND && !terms && rates.length > 0}
        />
        <ReviewTimeLine cardType={typeForQuote || undefined} className="mt-3" />
        <Button
          type="submit"
          form="upload-form"
          size="lg"
          className="mt-4 w-full"
          disabled={uploading || !hasMethods || suspended || scamCheck === 'yes'}
          data-testid="submit-card"
        >
          {uploading ? (
            <>
              <Loader2Icon className="animate-spin" /> Uploading...
            </>
          ) : (
            'Submit Gift Card'
          )}
        </Button>
        <p className="mt-3 flex items-start gap-2 text-xs text-muted-foreground">
          <ShieldCheckIcon className="mt-px size-4 shrink-0" />
          Your photos are stored privately and seen only by the staff who review your card.
        </p>
      </aside>
    </div>
  );
}

/**
 * "Did someone you don't know ask you to buy this card to pay them?" (decision 073). Yes stops
 * the sale: gift cards are the payment scammers ask for most, and a victim can still keep the
 * card and report it.
 */
function ScamQuestion({
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
  control: ReturnType<typeof useForm<UploadFormValues>>['control'];
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

/** The live quote: value × brand rate, to 2 decimals, with the rate as a whole percent. */
function PayoutQuote({
  cardType,
  cardValue,
  terms,
  retired,
}: {
  cardType: string;
  cardValue: string;
  terms: BrandRate | undefined;
  /** The chosen brand left the list while the form was open. */
  retired: boolean;
}) {
  const valid = cardType !== '' && !!terms && cardValueProblem(cardValue, terms.minimum) === null;
  const q = valid && terms ? quote(terms.rate, cardValue.trim()) : null;
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
              {ratePercent(q.rate)}% rate for {cardType}
            </p>
          </>
        ) : retired ? (
          <p className="mt-2 text-sm font-medium text-destructive" role="alert">
            We no longer buy {cardType} gift cards. Please choose another brand.
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

function UploadSuccess({ onAnother }: { onAnother: () => void }) {
  return (
    <Card className="mx-auto max-w-xl text-center" data-testid="upload-success">
      <CardContent className="grid justify-items-center gap-3 p-8">
        <span className="flex size-14 items-center justify-center rounded-full bg-green-100 text-green-700 dark:bg-green-400/15 dark:text-green-300">
          <CheckCircle2Icon className="size-8" />
        </span>
        <h2 className="text-2xl font-bold">Gift card submitted!</h2>
        <p className="text-muted-foreground">
          Your gift card has been submitted for review. Transactions are completed within 2 hours;
          those started after 9pm Central Time may take longer.
        </p>
        <div className="mt-3 flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
          <Button onClick={onAnother} data-testid="sell-another">
            Sell Another Card
          </Button>
          <Button variant="outline" asChild>
            <Link href="/">Go to Dashboard</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/**
 * What the customer may still submit, before they type a value, and a call to verify when the
 * value typed would pass it (decision 072).
 */
function AllowanceNote({ state, cardValue }: { state: VerificationState; cardValue: string }) {
  const { limits } = state;
  const left = (total: string, used: string) => Math.max(0, toCents(total) - toCents(used));
  const max = Math.min(
    toCents(limits.perCard),
    left(limits.perDay, limits.usedDay),
    left(limits.per30Days, limits.used30Days),
  );
  const value = cardValue.trim();
  const over = MONEY_PATTERN.test(value) && toCents(value) > max;
  const next = VERIFY_NEXT[state.level + 1];
  const pending = state.status === 'pending';
  return (
    <div
      className={`flex gap-3 rounded-lg border p-4 text-sm ${
        over
          ? 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100'
          : 'bg-card'
      }`}
      data-testid="allowance-note"
      role={over ? 'alert' : undefined}
    >
      {over ? (
        <AlertTriangleIcon className="mt-0.5 size-5 shrink-0" aria-hidden />
      ) : (
        <BadgeCheckIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
      )}
      <div className="grid gap-1">
        <p>
          {over ? (
            <strong>
              This card is over what you can sell now ({formatMoney(fromCents(max))}).
            </strong>
          ) : (
            <>
              You can sell up to{' '}
              <strong data-testid="allowance-max">{formatMoney(fromCents(max))}</strong> now
            </>
          )}{' '}
          <span className="text-muted-foreground">
            ({formatMoney(limits.perCard)} per card,{' '}
            {formatMoney(fromCents(left(limits.perDay, limits.usedDay)))} left in 24 hours,{' '}
            {formatMoney(fromCents(left(limits.per30Days, limits.used30Days)))} left in 30 days).
          </span>
        </p>
        {next && (
          <p>
            <Link
              href="/verification"
              className="font-semibold underline underline-offset-2"
              data-testid="verify-link"
            >
              {pending ? 'Your verification is being checked' : `${next} to sell more`}
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}

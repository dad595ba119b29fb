import { effectiveCardType } from '@shared/card-rules';
import { OTHER_BRAND } from '@shared/rates';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2Icon, Loader2Icon, ShieldCheckIcon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'wouter';
import { PaymentTimeLine, ReviewTimeLine } from '@/components/fair/review-time';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TextareaField } from '@/components/ui/text-field';
import { useAuth } from '@/lib/auth';
import { verificationQuery } from '@/lib/queries';
import { useCustomerOnly } from '@/lib/use-customer-only';
import { AllowanceNote } from './allowance-note';
import { CardFields } from './card-fields';
import { ImagePicker } from './image-picker';
import { NoPaymentMethodBanner, PaymentMethodField } from './payment-method-field';
import { PayoutQuote } from './payout-quote';
import { ScamQuestion } from './scam-question';
import { type Phase, termsOf, useUploadForm } from './use-upload-form';

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

/** The card, where it is paid, its photos and the scam question, beside the live quote. */
function UploadForm({
  uploading,
  onPhase,
}: {
  uploading: boolean;
  onPhase: (phase: Phase) => void;
}) {
  const { form, methods, rates, files, setFiles, scamCheck, scamError, answerScam, onSubmit } =
    useUploadForm(onPhase);
  const hasMethods = (methods.data?.length ?? 0) > 0;
  const { user } = useAuth();
  const suspended = user?.standing === 'suspended';
  // What the customer may still submit (decision 072), shown before they type a value.
  const allowance = useQuery(verificationQuery()).data;
  const cardType = form.watch('cardType');
  const customCardType = form.watch('customCardType');
  const cardValue = form.watch('cardValue');
  const cardFormat = form.watch('cardFormat');
  const typeForQuote = effectiveCardType({ cardType, customCardType });
  const terms = termsOf(rates, { cardType, customCardType });

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="grid gap-6">
        {!methods.isLoading && !hasMethods && <NoPaymentMethodBanner />}
        {allowance && !suspended && <AllowanceNote state={allowance} cardValue={cardValue} />}
        <Card>
          <CardHeader>
            <CardTitle>Card details</CardTitle>
            <CardDescription>Everything we need to verify the card.</CardDescription>
          </CardHeader>
          <CardContent>
            <form id="upload-form" className="grid gap-5" noValidate onSubmit={onSubmit}>
              <fieldset disabled={uploading || suspended} className="grid gap-5">
                <CardFields form={form} rates={rates} typeForQuote={typeForQuote} terms={terms} />
                <PaymentMethodField
                  form={form}
                  methods={methods.data}
                  loading={methods.isLoading}
                />
                <TextareaField
                  id="notes"
                  label="Notes (optional)"
                  error={form.formState.errors.notes?.message}
                  placeholder="Anything our reviewers should know, such as where you bought it (the code goes above)"
                  {...form.register('notes')}
                />
                <div className="grid gap-2">
                  <span className="text-sm font-medium">Gift Card Images</span>
                  <ImagePicker files={files} onChange={setFiles} disabled={uploading} />
                </div>
                <ScamQuestion value={scamCheck} error={scamError} onChange={answerScam} />
              </fieldset>
            </form>
          </CardContent>
        </Card>
      </div>
      <aside className="lg:sticky lg:top-20 lg:self-start">
        <PayoutQuote
          cardType={typeForQuote}
          cardValue={cardValue}
          cardFormat={cardFormat}
          terms={terms}
          retired={!!cardType && cardType !== OTHER_BRAND && !terms && rates.length > 0}
        />
        <ReviewTimeLine cardType={typeForQuote || undefined} className="mt-3" />
        <PaymentTimeLine cardType={typeForQuote || undefined} className="mt-1" />
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

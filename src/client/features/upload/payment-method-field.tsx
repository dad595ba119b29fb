import type { UploadFormValues } from '@shared/card-rules';
import { type PaymentMethod, paymentMethodLabel } from '@shared/payment-methods';
import { AlertTriangleIcon } from 'lucide-react';
import type { UseFormReturn } from 'react-hook-form';
import { Link } from 'wouter';
import { paymentMethodDetail } from '@/components/payment-methods/payment-method-list';
import { PayoutHoldNotice } from '@/components/payout-hold-notice';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';

/** Where the payout goes: one of the customer's payment methods, the default preselected. */
export function PaymentMethodField({
  form,
  methods,
  loading,
}: {
  form: UseFormReturn<UploadFormValues>;
  methods: PaymentMethod[] | undefined;
  loading: boolean;
}) {
  const { errors } = form.formState;
  const hasMethods = (methods?.length ?? 0) > 0;
  const chosen = methods?.find((m) => m.id === form.watch('paymentMethodId'));
  return (
    <>
      <Field
        id="paymentMethodId"
        label="Payment Method"
        error={errors.paymentMethodId?.message}
        hint={
          !hasMethods && !loading ? 'You must add a payment method before uploading' : undefined
        }
      >
        <NativeSelect
          id="paymentMethodId"
          aria-invalid={!!errors.paymentMethodId}
          {...form.register('paymentMethodId')}
        >
          {hasMethods ? (
            methods!.map((m) => (
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
      {/* A new payee's payouts wait (decision 072): said before the card is sent, not after. */}
      <PayoutHoldNotice until={chosen?.payoutsFrom ?? null} reason="new_method" />
    </>
  );
}

/** No payment method yet: nothing can be submitted until one is added. */
export function NoPaymentMethodBanner() {
  return (
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
          <Link href="/payment-methods" className="font-semibold underline underline-offset-2">
            Add a payment method
          </Link>
        </p>
      </div>
    </div>
  );
}

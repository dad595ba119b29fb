import { zodResolver } from '@hookform/resolvers/zod';
import {
  BANK_TRANSFER_NOTE,
  CASHTAG_NOTE,
  type CreatePaymentMethodInput,
  createPaymentMethodSchema,
  PAYMENT_METHOD_INFO,
  PAYMENT_METHOD_TYPES,
  type PaymentMethod,
  type PaymentMethodType,
} from '@shared/payment-methods';
import { Controller, useForm } from 'react-hook-form';
import { FormActions } from '@/components/form-actions';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';
import { useAddPaymentMethod, useUpdatePaymentMethod } from './use-payment-methods';

type FormValues = {
  type: PaymentMethodType;
  accountName: string;
  identifier: string;
  accountNumber: string;
  bankName: string;
  routingNumber: string;
  isDefault: boolean;
};

const valuesOf = (method: PaymentMethod | undefined): FormValues => ({
  type: (method?.type as PaymentMethodType | undefined) ?? 'cash_app',
  accountName: method?.accountName ?? '',
  identifier: method?.identifier ?? '',
  accountNumber: method?.accountNumber ?? '',
  bankName: method?.bankName ?? '',
  routingNumber: method?.routingNumber ?? '',
  isDefault: method?.isDefault ?? false,
});

/**
 * The add form, or the edit form of `method`; its fields and labels follow the chosen type (spec
 * section 5). The default's own box stays ticked: another method is made the default instead.
 */
export function PaymentMethodForm({
  method,
  onDone,
  onCancel,
}: {
  method?: PaymentMethod;
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const form = useForm<FormValues, unknown, CreatePaymentMethodInput>({
    resolver: zodResolver(createPaymentMethodSchema) as never,
    defaultValues: valuesOf(method),
  });
  const done = () => {
    form.reset();
    onDone?.();
  };
  const add = useAddPaymentMethod(done);
  const update = useUpdatePaymentMethod(done);
  const pending = add.isPending || update.isPending;
  const isOnlyDefault = method?.isDefault === true;
  const type = form.watch('type');
  const info = PAYMENT_METHOD_INFO[type];
  const { errors } = form.formState;
  const text = (
    name: keyof Omit<FormValues, 'isDefault' | 'type'>,
    label: string,
    placeholder = '',
    hint?: string,
  ) => (
    <TextField
      id={`pm-${name}`}
      label={label}
      error={errors[name]?.message}
      hint={hint}
      placeholder={placeholder}
      {...form.register(name)}
    />
  );

  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={form.handleSubmit((values) =>
        method
          ? update.mutate({
              id: method.id,
              body: { ...values, isDefault: values.isDefault || undefined },
            })
          : add.mutate(values),
      )}
    >
      <Field id="pm-type" label="Payment Type" error={errors.type?.message}>
        <NativeSelect id="pm-type" {...form.register('type')}>
          {PAYMENT_METHOD_TYPES.map((t) => (
            <option key={t} value={t}>
              {PAYMENT_METHOD_INFO[t].label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {text('accountName', 'Account Name', 'Name on the account')}
      {type === 'bank_transfer' ? (
        <>
          <p className="text-sm text-muted-foreground" data-testid="bank-transfer-note">
            {BANK_TRANSFER_NOTE}
          </p>
          {text('bankName', 'Bank Name', 'e.g. Chase')}
          <div className="grid gap-4 sm:grid-cols-2">
            {text('accountNumber', 'Account Number', '4 to 17 digits')}
            {text('routingNumber', 'Routing Number', '9 digits')}
          </div>
        </>
      ) : (
        text(
          'identifier',
          info.identifierLabel,
          info.identifierPlaceholder,
          type === 'cash_app' ? CASHTAG_NOTE : undefined,
        )
      )}
      <div className="flex items-center gap-2">
        <Controller
          control={form.control}
          name="isDefault"
          render={({ field }) => (
            <Checkbox
              id="pm-default"
              checked={field.value}
              disabled={isOnlyDefault}
              aria-describedby={isOnlyDefault ? 'pm-default-hint' : undefined}
              onCheckedChange={(v) => field.onChange(v === true)}
            />
          )}
        />
        <Label htmlFor="pm-default" className="font-normal">
          Use as my default payment method
        </Label>
      </div>
      {isOnlyDefault && (
        <p id="pm-default-hint" className="-mt-2 text-xs text-muted-foreground">
          To change your default, edit another method and make it the default.
        </p>
      )}
      <FormActions
        label={method ? 'Save Changes' : 'Add Payment Method'}
        pending={pending}
        onCancel={onCancel}
      />
    </form>
  );
}

import type * as React from 'react';
import {
  type FieldValues,
  get,
  type Path,
  type UseFormReturn,
  useFormState,
} from 'react-hook-form';
import { TextField } from '@/components/ui/text-field';
import { cn } from '@/lib/utils';

/**
 * A TextField bound to one field of a form: the input registered under `name`, and the error of
 * that same field shown beneath it, so the two can never name different fields.
 */
export function FormTextField<T extends FieldValues, Output = T>({
  form,
  name,
  ...props
}: FormTextFieldProps<T, Output>) {
  const { errors } = useFormState({ control: form.control, name });
  const error: { message?: string } | undefined = get(errors, name);
  return <TextField error={error?.message} {...props} {...form.register(name)} />;
}

type FormTextFieldProps<T extends FieldValues, Output> = Omit<
  React.ComponentProps<typeof TextField>,
  'name' | 'error' | 'form'
> & {
  form: UseFormReturn<T, unknown, Output>;
  name: Path<T>;
};

/** An email address, typed as one, which the browser may fill with the address it knows. */
export function EmailField<T extends FieldValues, Output = T>(
  props: Omit<FormTextFieldProps<T, Output>, 'type' | 'autoComplete'>,
) {
  return <FormTextField type="email" autoComplete="email" {...props} />;
}

/** The account's current password (signing in, or proving it is you), which the browser may fill. */
export function CurrentPasswordField<T extends FieldValues, Output = T>(
  props: Omit<FormTextFieldProps<T, Output>, 'type' | 'autoComplete'>,
) {
  return <FormTextField type="password" autoComplete="current-password" {...props} />;
}

/**
 * A new password typed twice: the field `name` and its repetition `confirm`, labelled
 * "Repeat the …" after the first.
 */
export function NewPasswordFields<T extends FieldValues & { confirm: string }, Output = T>({
  form,
  name,
  idPrefix,
  label,
  placeholder,
}: {
  form: UseFormReturn<T, unknown, Output>;
  name: Path<T>;
  idPrefix: string;
  label: string;
  placeholder?: string;
}) {
  const password = { type: 'password', autoComplete: 'new-password' } as const;
  return (
    <>
      <FormTextField
        {...password}
        form={form}
        name={name}
        id={`${idPrefix}-password`}
        label={label}
        placeholder={placeholder}
      />
      <FormTextField
        {...password}
        form={form}
        name={'confirm' as Path<T>}
        id={`${idPrefix}-confirm`}
        label={`Repeat the ${label.toLowerCase()}`}
      />
    </>
  );
}

/** A form's failure that belongs to no one field, announced when it appears. */
export function FormAlert({ message, className }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p className={cn('text-sm font-medium text-destructive', className)} role="alert">
      {message}
    </p>
  );
}

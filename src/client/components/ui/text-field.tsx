import type * as React from 'react';
import { Field } from './field';
import { Input } from './input';
import { Textarea } from './textarea';

/** The ARIA wiring of a control to the error its Field shows beneath it. */
const describedBy = (id: string, error?: string) => ({
  'aria-invalid': !!error,
  'aria-describedby': error ? `${id}-error` : undefined,
});

type FieldProps = { id: string; label: React.ReactNode; error?: string; hint?: React.ReactNode };

/** A labelled text input with its error: the Field and Input pair most forms need. */
export function TextField({
  id,
  label,
  error,
  hint,
  className,
  ...input
}: React.ComponentProps<'input'> & FieldProps) {
  return (
    <Field id={id} label={label} error={error} hint={hint} className={className}>
      <Input id={id} {...describedBy(id, error)} {...input} />
    </Field>
  );
}

/** A labelled textarea with its error. */
export function TextareaField({
  id,
  label,
  error,
  hint,
  className,
  ...textarea
}: React.ComponentProps<'textarea'> & FieldProps) {
  return (
    <Field id={id} label={label} error={error} hint={hint} className={className}>
      <Textarea id={id} {...describedBy(id, error)} {...textarea} />
    </Field>
  );
}

/** The account's password asked again before a sensitive step: focused, filled by managers. */
export function CurrentPasswordField({
  onValue,
  ...props
}: Omit<React.ComponentProps<typeof TextField>, 'label' | 'onChange'> & {
  onValue: (value: string) => void;
}) {
  return (
    <TextField
      label="Password"
      type="password"
      autoComplete="current-password"
      autoFocus
      onChange={(e) => onValue(e.target.value)}
      {...props}
    />
  );
}

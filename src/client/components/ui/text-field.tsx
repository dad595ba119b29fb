import type * as React from 'react';
import { Field } from './field';
import { Input } from './input';

/** A labelled text input with its error: the Field and Input pair most forms need. */
export function TextField({
  id,
  label,
  error,
  hint,
  className,
  ...input
}: React.ComponentProps<'input'> & {
  id: string;
  label: React.ReactNode;
  error?: string;
  hint?: React.ReactNode;
}) {
  return (
    <Field id={id} label={label} error={error} hint={hint} className={className}>
      <Input id={id} aria-invalid={!!error} {...input} />
    </Field>
  );
}

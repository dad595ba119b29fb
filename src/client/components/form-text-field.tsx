import type * as React from 'react';
import {
  type FieldValues,
  get,
  type Path,
  type UseFormReturn,
  useFormState,
} from 'react-hook-form';
import { TextField } from '@/components/ui/text-field';

/**
 * A TextField bound to one field of a form: the input registered under `name`, and the error of
 * that same field shown beneath it, so the two can never name different fields.
 */
export function FormTextField<T extends FieldValues, Output = T>({
  form,
  name,
  ...props
}: Omit<React.ComponentProps<typeof TextField>, 'name' | 'error' | 'form'> & {
  form: UseFormReturn<T, unknown, Output>;
  name: Path<T>;
}) {
  const { errors } = useFormState({ control: form.control, name });
  const error: { message?: string } | undefined = get(errors, name);
  return <TextField error={error?.message} {...props} {...form.register(name)} />;
}

import { UploadIcon } from 'lucide-react';
import type * as React from 'react';
import { FormAlert } from '@/components/form-text-field';
import { Button, type ButtonProps } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { useFileForm } from './file-form';

/**
 * The one-file upload form of the books and payouts, driven by `useFileForm`: any fields sent
 * ahead of the file (children), the file's input, the submit button with its upload icon, and the
 * form's error beneath it. `testId` names the form (`…-form`) and its button (`…-submit`).
 */
export function FileUploadForm({
  state,
  testId,
  className,
  file,
  label,
  pendingLabel,
  variant,
  children,
}: {
  state: Omit<ReturnType<typeof useFileForm>, 'upload'> & { upload: { isPending: boolean } };
  testId: string;
  className: string;
  /** The file input: its id, its label and the files it accepts. */
  file: { id: string; label: string; accept: string };
  label: string;
  pendingLabel: string;
  variant?: ButtonProps['variant'];
  children?: React.ReactNode;
}) {
  const pending = state.upload.isPending;
  return (
    <>
      <form className={className} onSubmit={state.submit} noValidate data-testid={`${testId}-form`}>
        {children}
        <Field id={file.id} label={file.label}>
          <Input id={file.id} type="file" accept={file.accept} onChange={state.choose} />
        </Field>
        <Button type="submit" variant={variant} disabled={pending} data-testid={`${testId}-submit`}>
          <UploadIcon /> {pending ? pendingLabel : label}
        </Button>
      </form>
      <FormAlert message={state.error} />
    </>
  );
}

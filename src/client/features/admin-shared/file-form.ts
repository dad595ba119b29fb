import { useMutation } from '@tanstack/react-query';
import * as React from 'react';
import { serverMessage } from '@/lib/api';

/**
 * A staff form that sends one chosen file (a bank statement, an ACH return file): the file's
 * input handler, the form's error, and a submit that asks for a file before sending it.
 */
export function useFileForm<T>({
  send,
  onSuccess,
  missing,
  failed,
}: {
  send: (file: File) => Promise<T>;
  onSuccess: () => unknown;
  /** The error when no file is chosen. */
  missing: string;
  /** The error when the server answers without a message. */
  failed: string;
}) {
  const [file, setFile] = React.useState<File | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const upload = useMutation({
    mutationFn: () => send(file!),
    onSuccess,
    onError: (e) => setError(serverMessage(e) ?? failed),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return setError(missing);
    setError(null);
    upload.mutate();
  };
  const choose = (event: React.ChangeEvent<HTMLInputElement>) =>
    setFile(event.target.files?.[0] ?? null);
  return { upload, error, submit, choose };
}

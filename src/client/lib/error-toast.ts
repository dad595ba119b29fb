import { serverMessage } from './api';
import { toast } from './toast';

/**
 * An `onError` that shows the server's message, or `fallback` when it gave none. Apart from
 * lib/toast so that pages using toasts without the API client (the landing page) do not load it.
 */
export const errorToast = (fallback: string) => (error: unknown) =>
  toast({ title: 'Error', description: serverMessage(error) ?? fallback, variant: 'destructive' });

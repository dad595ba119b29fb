/**
 * Step-up (decision 072): a payment-method change the server refuses with 401
 * `reauth_required` asks for the password again (the dialog in components/reauth-dialog.tsx),
 * then is sent once more.
 */
import { ApiError } from './api';

type Waiter = (confirmed: boolean) => void;
let waiting: Waiter[] = [];
const listeners = new Set<(open: boolean, reason?: string) => void>();

export function isReauthRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.code === 'reauth_required';
}

/**
 * Opens the password dialog; resolves true once the server took the password. `reason` says what
 * the password is asked for (a payment-method change when none is given).
 */
export function requestReauth(reason?: string): Promise<boolean> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    for (const listener of listeners) listener(true, reason);
  });
}

/** The dialog's answer: every write waiting on it goes on (or gives up). */
export function finishReauth(confirmed: boolean) {
  const done = waiting;
  waiting = [];
  for (const resolve of done) resolve(confirmed);
  for (const listener of listeners) listener(false);
}

export function onReauthRequest(listener: (open: boolean, reason?: string) => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Runs a write; when it needs a fresh password, asks for it and runs it once more. */
export async function withStepUp<T>(write: () => Promise<T>, reason?: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isReauthRequired(error) || !(await requestReauth(reason))) throw error;
    return write();
  }
}

import * as React from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { currentUser } from './auth';

/**
 * Drafts that outlive a lost session (issue 43, item 18; decision 142). A form's typed fields are
 * kept in this tab's session storage as they change, under the account that typed them; after a
 * sign-out in another tab or an expired session, the sign-in comes back to the page (see
 * `rememberReturnPath`) and the form picks its draft up again. A sent form forgets its draft; a
 * deliberate sign-out forgets every draft of the tab; another account never sees one.
 */
const PREFIX = 'draft:';
const RETURN_KEY = 'return-to';

interface Stored {
  owner: string;
  values: Record<string, unknown>;
}

function read(key: string): Stored | null {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    return raw ? (JSON.parse(raw) as Stored) : null;
  } catch {
    return null;
  }
}

function write(key: string, stored: Stored | null) {
  try {
    if (stored) sessionStorage.setItem(PREFIX + key, JSON.stringify(stored));
    else sessionStorage.removeItem(PREFIX + key);
  } catch {}
}

/** Every draft of this tab, forgotten (a sign-out on purpose). */
export function forgetDrafts() {
  try {
    for (const key of Object.keys(sessionStorage)) {
      if (key.startsWith(PREFIX) || key === RETURN_KEY) sessionStorage.removeItem(key);
    }
  } catch {}
}

/**
 * Keeps `fields` of `form` as a draft under `key` while typed, and fills them from the draft of
 * the same account when the form appears. Answers `clear`, for when the form is sent.
 */
export function useFormDraft<T extends FieldValues>(
  key: string,
  form: UseFormReturn<T>,
  fields: readonly Path<T>[],
) {
  const owner = currentUser()?.id ?? '';
  const fieldsRef = React.useRef(fields);
  React.useEffect(() => {
    if (!owner) return;
    const saved = read(key);
    if (saved?.owner === owner) {
      for (const field of fieldsRef.current) {
        const value = saved.values[field];
        if (typeof value === 'string' && value !== '') {
          form.setValue(field, value as PathValue<T, Path<T>>, { shouldDirty: true });
        }
      }
    }
    const watching = form.watch((values) => {
      const kept: Record<string, unknown> = {};
      for (const field of fieldsRef.current) kept[field] = values[field as keyof typeof values];
      const empty = Object.values(kept).every((v) => v === '' || v === undefined || v === null);
      write(key, empty ? null : { owner, values: kept });
    });
    return () => watching.unsubscribe();
  }, [key, form, owner]);
  return { clear: () => write(key, null) };
}

/** The page to come back to after the sign-in a lost session leads to (this tab only). */
export function rememberReturnPath() {
  try {
    sessionStorage.setItem(RETURN_KEY, window.location.pathname + window.location.search);
  } catch {}
}

/** The page a lost session left, once: a signed-in customer page, else null. */
export function takeReturnPath(isPage: (path: string) => boolean): string | null {
  try {
    const path = sessionStorage.getItem(RETURN_KEY);
    sessionStorage.removeItem(RETURN_KEY);
    return path && isPage(path.split('?')[0]!) ? path : null;
  } catch {
    return null;
  }
}

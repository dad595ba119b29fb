import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver from a plain function that names each field's problem, so a form
 * reports every problem at once and needs no schema library in the browser.
 */
export function problemsResolver<T extends FieldValues>(
  problems: (values: T) => Partial<Record<string, string>>,
): Resolver<T> {
  return async (values) => {
    const found = Object.entries(problems(values)).filter(
      (entry): entry is [string, string] => !!entry[1],
    );
    if (found.length === 0) return { values, errors: {} };
    const errors = Object.fromEntries(
      found.map(([field, message]) => [field, { type: 'validate', message }]),
    ) as FieldErrors<T>;
    return { values: {}, errors };
  };
}

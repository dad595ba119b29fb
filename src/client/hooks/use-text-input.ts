import * as React from 'react';

/**
 * Text typed into one field, kept in state: its `value`, `set` to change it from code (a reset),
 * and `input`, the props that bind the field to it (`<TextField id="note" {...note.input} />`).
 */
export function useTextInput(initial: string | (() => string) = '') {
  const [value, set] = React.useState(initial);
  const onChange = React.useCallback(
    (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(event.target.value),
    [],
  );
  return { value, set, input: { value, onChange } };
}

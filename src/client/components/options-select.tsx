import type * as React from 'react';
import { NativeSelect } from '@/components/ui/native-select';

/**
 * A select named by `label` (a list's filter or order, a ticket's status), its choices as
 * [value, text] pairs.
 */
export function OptionsSelect<T extends string>({
  label,
  value,
  onChange,
  options,
  ...props
}: Omit<React.ComponentProps<typeof NativeSelect>, 'value' | 'onChange' | 'children'> & {
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly (readonly [T, React.ReactNode])[];
}) {
  return (
    <NativeSelect
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value as T)}
      {...props}
    >
      {options.map(([option, text]) => (
        <option key={option} value={option}>
          {text}
        </option>
      ))}
    </NativeSelect>
  );
}

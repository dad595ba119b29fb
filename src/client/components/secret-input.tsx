import { EyeIcon, EyeOffIcon } from 'lucide-react';
import * as React from 'react';
import { Input } from '@/components/ui/input';

/**
 * A field for a secret the customer types (a card's code or PIN): masked while typed, with a
 * button that shows it to check it, and nothing a browser would remember or autocorrect.
 */
export function SecretInput({
  showLabel,
  ...props
}: React.ComponentProps<'input'> & { showLabel: string }) {
  const [shown, setShown] = React.useState(false);
  const Icon = shown ? EyeOffIcon : EyeIcon;
  return (
    <div className="relative">
      <Input
        {...props}
        type={shown ? 'text' : 'password'}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        className="pr-11 font-mono"
      />
      <button
        type="button"
        className="absolute right-1 top-1/2 flex size-8 -translate-y-1/2 items-center justify-center rounded text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-label={showLabel}
        aria-pressed={shown}
        onClick={() => setShown((s) => !s)}
      >
        <Icon className="size-4" aria-hidden />
      </button>
    </div>
  );
}

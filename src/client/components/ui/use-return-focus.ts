import * as React from 'react';

/**
 * Radix returns focus to a dialog's Trigger when it closes; ours open from state, with no Trigger,
 * so focus fell to the page body. This remembers what had focus as the dialog opened and puts
 * focus back there on close (handlers for Radix Content's open and close auto-focus events).
 */
export function useReturnFocus(handlers: {
  onOpenAutoFocus?: (event: Event) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const returnTo = React.useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      const active = document.activeElement;
      returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
      handlers.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      handlers.onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      event.preventDefault();
      const target = returnTo.current;
      if (target?.isConnected) target.focus();
    },
  };
}

import * as React from 'react';

/** Whether a key press belongs to a field being typed in (no shortcut fires there). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/**
 * Single-key shortcuts (`j`, `a`, `?`, `enter`, `arrowright`...) while `enabled`: never while
 * typing in a field, nor with Ctrl, Alt or Meta held (the browser's and the screen reader's own
 * keys). Keys are matched as `event.key`, in either case.
 */
export function useShortcuts(keys: Record<string, () => void>, enabled = true) {
  const latest = React.useRef(keys);
  latest.current = keys;
  React.useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) return;
      if (isTyping(event.target)) return;
      // A part of the page with keys of its own (the photo viewer's arrows).
      if (event.target instanceof Element && event.target.closest('[data-no-shortcuts]')) return;
      // Enter and Space on a button or link are that control's own.
      if (
        (event.key === 'Enter' || event.key === ' ') &&
        event.target instanceof HTMLElement &&
        event.target.closest('button, a, [role="tab"], [role="menuitem"], [role="option"]')
      ) {
        return;
      }
      const action = latest.current[event.key] ?? latest.current[event.key.toLowerCase()];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

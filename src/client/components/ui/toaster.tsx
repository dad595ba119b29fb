import { XIcon } from 'lucide-react';
import * as React from 'react';
import { dismiss, type ToastItem, useToast } from '@/lib/toast';
import { cn } from '@/lib/utils';

/** Spec section 9: a toast shows for 5000 ms unless it says otherwise. */
export const TOAST_DURATION = 5000;
const HOTKEY = 'F8';

/**
 * The toasts, one at a time, in a region F8 focuses (spec section 9). Announced politely and
 * never a layer over a dialog: Escape keeps closing the dialog underneath.
 */
export function Toaster() {
  const { toasts } = useToast();
  const regionRef = React.useRef<HTMLDivElement>(null);

  React.useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === HOTKEY) regionRef.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  // Hovering or focusing the toasts holds them open.
  const [paused, setPaused] = React.useState(false);
  const shown = toasts.filter((t) => t.open);
  return (
    <section
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      ref={regionRef}
      tabIndex={-1}
      aria-label={`Notifications (${HOTKEY})`}
      aria-live="polite"
      className="fixed bottom-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none sm:max-w-[420px] empty:hidden"
    >
      {shown.map((t) => (
        <Toast key={t.id} toast={t} paused={paused} />
      ))}
    </section>
  );
}

function Toast({
  toast: { id, title, description, variant, duration },
  paused,
}: {
  toast: ToastItem;
  paused: boolean;
}) {
  React.useEffect(() => {
    if (paused || duration === Number.POSITIVE_INFINITY) return;
    const timer = setTimeout(() => dismiss(id), duration ?? TOAST_DURATION);
    return () => clearTimeout(timer);
  }, [id, duration, paused]);

  const destructive = variant === 'destructive';
  return (
    <div
      role={destructive ? 'alert' : undefined}
      data-testid="toast"
      className={cn(
        'pointer-events-auto relative flex w-full animate-[toast-in_200ms_ease-out] items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg',
        destructive
          ? 'border-destructive bg-destructive text-destructive-foreground'
          : 'bg-card text-card-foreground',
      )}
    >
      <div className="grid min-w-0 gap-1 break-words">
        {title && <p className="text-sm font-semibold">{title}</p>}
        {description && <p className="text-sm">{description}</p>}
      </div>
      <button
        type="button"
        aria-label="Close"
        onClick={() => dismiss(id)}
        className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <XIcon className="size-4" />
      </button>
    </div>
  );
}

import { XIcon } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { cn } from '@/lib/utils';
import { dismiss, useToast } from './use-toast';

/** Toasts show for 5000 ms by default; F8 focuses them (Radix's hotkey). */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right">
      {toasts.map(({ id, title, description, variant, duration, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={duration}
          onOpenChange={(next) => {
            if (!next) dismiss(id);
          }}
          data-testid="toast"
          className={cn(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg data-[state=open]:animate-[toast-in_200ms_ease-out] data-[state=closed]:hidden',
            variant === 'destructive'
              ? 'border-destructive bg-destructive text-destructive-foreground'
              : 'bg-card text-card-foreground',
          )}
        >
          <div className="grid gap-1">
            {title && (
              <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title>
            )}
            {description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute right-2 top-2 rounded-md p-1 opacity-60 hover:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <XIcon className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed bottom-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}

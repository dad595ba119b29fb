import { Loader2Icon } from 'lucide-react';

export function Spinner() {
  return (
    <div className="flex min-h-[50svh] items-center justify-center" aria-busy="true">
      <Loader2Icon className="size-6 animate-spin text-muted-foreground" aria-label="Loading" />
    </div>
  );
}

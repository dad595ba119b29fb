import { PRODUCT_NAME } from '@shared/brand';
import { CreditCardIcon } from 'lucide-react';
import { cn } from '@/lib/utils';

export function BrandMark({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        'flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm',
        className,
      )}
    >
      <CreditCardIcon className="size-4.5" />
    </span>
  );
}

export function BrandLogo({
  text = PRODUCT_NAME,
  className,
}: {
  text?: string;
  className?: string;
}) {
  return (
    <span className={cn('flex items-center gap-2.5 font-semibold tracking-tight', className)}>
      <BrandMark />
      <span className="truncate">{text}</span>
    </span>
  );
}

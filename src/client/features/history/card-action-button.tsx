import type * as React from 'react';
import { Button } from '@/components/ui/button';

/** A card's action in the history (appeal, withdraw): a small button that opens its dialog. */
export function CardActionButton({
  onClick,
  testId,
  children,
}: {
  onClick: () => void;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      className="justify-self-start"
      onClick={onClick}
      data-testid={testId}
    >
      {children}
    </Button>
  );
}

import { Badge } from '@/components/ui/badge';

/** Active, suspended or closed (decision 072), for staff; the reason on hover when given. */
export function StandingBadge({
  standing,
  reason,
  testId,
}: {
  standing: string;
  reason?: string | null;
  testId: string;
}) {
  if (standing === 'active') return <Badge variant="outline">Active</Badge>;
  return (
    <Badge
      className={
        standing === 'closed'
          ? 'bg-muted text-foreground'
          : 'bg-destructive text-destructive-foreground'
      }
      title={reason ?? undefined}
      data-testid={testId}
    >
      {standing === 'closed' ? 'Closed' : 'Suspended'}
    </Badge>
  );
}

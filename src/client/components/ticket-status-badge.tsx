import { ticketStatusColour, ticketStatusLabel } from '@shared/statuses';
import { ColouredBadge } from './status-badge';

export function TicketStatusBadge({ status }: { status: string }) {
  return (
    <ColouredBadge
      colour={ticketStatusColour(status)}
      label={ticketStatusLabel(status)}
      testId="ticket-status"
    />
  );
}

import { FileTextIcon } from 'lucide-react';
import { formatDateTime, formatTime } from '@/lib/dates';
import { cn } from '@/lib/utils';

/**
 * One message: mine on the right, the other side's on the left; images inline, files as links.
 * `withDate` shows the day too (a ticket's thread spans days; a chat shows the time).
 */
export function ChatBubble({
  mine,
  label,
  entry: { message, createdAt, attachmentUrl, attachmentType },
  withDate = false,
}: {
  mine: boolean;
  label: string;
  /** A chat message, or a ticket's message or reply (their attachments are shown apart). */
  entry: {
    message: string;
    createdAt: string;
    attachmentUrl?: string | null;
    attachmentType?: string | null;
  };
  withDate?: boolean;
}) {
  return (
    <li
      className={cn('flex flex-col gap-1', mine ? 'items-end' : 'items-start')}
      data-testid="chat-message"
    >
      <span className="px-1 text-xs text-muted-foreground">
        {label} · {withDate ? formatDateTime(createdAt) : formatTime(createdAt)}
      </span>
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-3.5 py-2 text-sm shadow-xs sm:max-w-[70%]',
          mine
            ? 'rounded-br-sm bg-primary text-primary-foreground'
            : 'rounded-bl-sm border bg-card',
        )}
      >
        {attachmentUrl &&
          (attachmentType === 'image' ? (
            <a href={attachmentUrl} target="_blank" rel="noreferrer" className="mb-1 block">
              <img
                src={attachmentUrl}
                alt="Attachment"
                className="max-h-56 rounded-lg object-contain"
                data-testid="chat-image"
              />
            </a>
          ) : (
            <a
              href={attachmentUrl}
              className="mb-1 flex items-center gap-1.5 font-medium underline underline-offset-2"
              data-testid="chat-file"
            >
              <FileTextIcon className="size-4" /> View Attachment
            </a>
          ))}
        {message && <p className="whitespace-pre-wrap break-words">{message}</p>}
      </div>
    </li>
  );
}

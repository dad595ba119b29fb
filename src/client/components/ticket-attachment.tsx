import { FileIcon, LinkIcon } from 'lucide-react';
import { attachmentView } from '@/lib/attachments';
import { cn } from '@/lib/utils';

/**
 * A ticket's attachment (issue 43, item 12): an uploaded photo as a thumbnail, anything else as a
 * named link; it opens in a new tab either way.
 */
export function TicketAttachment({ url, className }: { url: string; className?: string }) {
  const view = attachmentView(url);
  const Icon = url.startsWith('/objects/') ? FileIcon : LinkIcon;
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer noopener"
      data-testid="ticket-attachment"
      className={cn(
        'inline-flex max-w-full items-center gap-1.5 text-sm text-primary underline-offset-2 hover:underline',
        className,
      )}
    >
      {view.image ? (
        <img
          src={url}
          alt={view.name}
          loading="lazy"
          className="size-24 rounded-md border object-cover"
        />
      ) : (
        <>
          <Icon className="size-3.5 shrink-0" aria-hidden /> {view.name}
        </>
      )}
    </a>
  );
}

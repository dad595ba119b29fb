import { Loader2Icon, PaperclipIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { ACCEPTED_UPLOAD_TYPES, localFileProblem, uploadFile } from '@/lib/upload';

export interface ReadyAttachment {
  url: string;
  type: 'image' | 'other';
  name: string;
}

export type AttachmentState =
  | { status: 'none' }
  | { status: 'uploading'; name: string }
  | ({ status: 'ready' } & ReadyAttachment);

/**
 * A file attached to a chat message or a ticket (spec section 4): uploading, then ready
 * (removable); a failed upload clears it. The file goes up as a chat attachment, so it is served
 * to its uploader and staff only.
 */
export function useAttachment(onUploadError: (error: Error) => void) {
  const [attachment, setAttachment] = React.useState<AttachmentState>({ status: 'none' });
  const inputRef = React.useRef<HTMLInputElement>(null);
  const pick = async (file: File | undefined) => {
    if (inputRef.current) inputRef.current.value = '';
    if (!file) return;
    const problem = localFileProblem(file);
    if (problem) {
      onUploadError(new Error(problem));
      return;
    }
    setAttachment({ status: 'uploading', name: file.name });
    try {
      const result = await uploadFile<{ url: string; type: 'image' | 'other' }>(
        '/api/chat/upload-attachment',
        file,
        () => {},
      );
      setAttachment({ status: 'ready', ...result, name: file.name });
    } catch (error) {
      setAttachment({ status: 'none' });
      onUploadError(error as Error);
    }
  };
  return {
    attachment,
    ready: attachment.status === 'ready' ? attachment : null,
    clear: () => setAttachment({ status: 'none' }),
    /** The hidden file input, opened by AttachButton. */
    input: (
      <input
        ref={inputRef}
        type="file"
        accept={ACCEPTED_UPLOAD_TYPES}
        className="sr-only"
        tabIndex={-1}
        aria-label="Choose a file to attach"
        onChange={(e) => pick(e.target.files?.[0])}
        data-testid="chat-file-input"
      />
    ),
    open: () => inputRef.current?.click(),
  };
}

/** What the attachment is doing: uploading, or ready with a way to remove it. */
export function AttachmentChip({
  attachment,
  onRemove,
}: {
  attachment: AttachmentState;
  onRemove: () => void;
}) {
  if (attachment.status === 'none') return null;
  return (
    <div
      className="flex w-fit max-w-full items-center gap-2 rounded-md border bg-muted/50 px-2.5 py-1.5 text-xs"
      data-testid="attachment-state"
    >
      {attachment.status === 'uploading' ? (
        <>
          <Loader2Icon className="size-3.5 animate-spin" /> Uploading {attachment.name}...
        </>
      ) : (
        <>
          <PaperclipIcon className="size-3.5" />
          <span className="font-medium">Attachment ready</span>
          <span className="truncate text-muted-foreground">{attachment.name}</span>
          <button
            type="button"
            aria-label="Remove attachment"
            className="rounded p-0.5 hover:bg-muted"
            onClick={onRemove}
          >
            <XIcon className="size-3.5" />
          </button>
        </>
      )}
    </div>
  );
}

export function AttachButton({
  onClick,
  disabled,
  label,
}: {
  onClick: () => void;
  disabled?: boolean;
  /** Shown beside the clip; without it the button is the icon alone (the chat composer). */
  label?: string;
}) {
  return (
    <Button
      type="button"
      variant="outline"
      size={label ? 'default' : 'icon'}
      className={label ? 'w-fit' : 'size-10 shrink-0'}
      aria-label={label ? undefined : 'Attach a file'}
      disabled={disabled}
      onClick={onClick}
    >
      <PaperclipIcon /> {label}
    </Button>
  );
}

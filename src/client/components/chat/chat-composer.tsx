import { Loader2Icon, PaperclipIcon, SendIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { ACCEPTED_UPLOAD_TYPES, localFileProblem, uploadFile } from '@/lib/upload';

export interface ReadyAttachment {
  url: string;
  type: 'image' | 'other';
  name: string;
}

type AttachmentState =
  | { status: 'none' }
  | { status: 'uploading'; name: string }
  | ({ status: 'ready' } & ReadyAttachment);

/**
 * Text, an attach button (images and PDF) and send. The attachment goes uploading, then
 * 'Attachment ready' (removable), then is cleared once sent; a failed upload clears it
 * (spec section 4). Enter without Shift sends. Sending needs text or a ready attachment.
 */
export function ChatComposer({
  onSend,
  onUploadError,
  sending,
  disabled,
  placeholder = 'Type your message...',
}: {
  onSend: (message: string, attachment: ReadyAttachment | null) => Promise<unknown>;
  onUploadError: (error: Error) => void;
  sending: boolean;
  disabled?: boolean;
  placeholder?: string;
}) {
  const [text, setText] = React.useState('');
  const [attachment, setAttachment] = React.useState<AttachmentState>({ status: 'none' });
  const inputRef = React.useRef<HTMLInputElement>(null);
  const ready = attachment.status === 'ready' ? attachment : null;
  const canSend =
    !disabled && !sending && attachment.status !== 'uploading' && (text.trim() !== '' || ready);

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

  const send = async () => {
    if (!canSend) return;
    try {
      await onSend(text.trim(), ready);
      setText('');
      setAttachment({ status: 'none' });
    } catch {
      // The caller's toast explains; the text and attachment stay for another try.
    }
  };

  return (
    <div className="grid gap-2 border-t bg-card p-3">
      {attachment.status !== 'none' && (
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
                onClick={() => setAttachment({ status: 'none' })}
              >
                <XIcon className="size-3.5" />
              </button>
            </>
          )}
        </div>
      )}
      <div className="flex items-end gap-2">
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
        <Button
          type="button"
          variant="outline"
          size="icon"
          className="size-10 shrink-0"
          aria-label="Attach a file"
          disabled={disabled || attachment.status === 'uploading'}
          onClick={() => inputRef.current?.click()}
        >
          <PaperclipIcon />
        </Button>
        <Textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          placeholder={placeholder}
          aria-label="Message"
          rows={1}
          disabled={disabled}
          className="min-h-10 resize-none"
        />
        <Button
          type="button"
          size="icon"
          className="size-10 shrink-0"
          aria-label="Send message"
          disabled={!canSend}
          onClick={() => void send()}
        >
          {sending ? <Loader2Icon className="animate-spin" /> : <SendIcon />}
        </Button>
      </div>
    </div>
  );
}

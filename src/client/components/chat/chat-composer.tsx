import { Loader2Icon, SendIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { AttachButton, AttachmentChip, type ReadyAttachment, useAttachment } from './attachment';

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
  const { attachment, ready, clear, input, open } = useAttachment(onUploadError);
  const canSend =
    !disabled && !sending && attachment.status !== 'uploading' && (text.trim() !== '' || ready);

  const send = async () => {
    if (!canSend) return;
    try {
      await onSend(text.trim(), ready);
      setText('');
      clear();
    } catch {
      // The caller's toast explains; the text and attachment stay for another try.
    }
  };

  return (
    <div className="grid gap-2 border-t bg-card p-3">
      <AttachmentChip attachment={attachment} onRemove={clear} />
      <div className="flex items-end gap-2">
        {input}
        <AttachButton onClick={open} disabled={disabled || attachment.status === 'uploading'} />
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

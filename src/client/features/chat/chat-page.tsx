import { useQuery } from '@tanstack/react-query';
import { HeadsetIcon, Loader2Icon } from 'lucide-react';
import { ChatBubble } from '@/components/chat/chat-bubble';
import { ChatComposer } from '@/components/chat/chat-composer';
import { useScrollToEnd } from '@/components/chat/use-scroll-to-end';
import { useSendChatMessage } from '@/components/chat/use-send-chat-message';
import { PageHeader } from '@/components/page-header';
import { Card } from '@/components/ui/card';
import { serverMessage } from '@/lib/api';
import { chatMessagesQuery, refresh } from '@/lib/queries';
import { toast } from '@/lib/toast';

export function ChatPage() {
  const { data: messages, isLoading } = useQuery(chatMessagesQuery());
  const listRef = useScrollToEnd(messages?.length ?? 0);
  const send = useSendChatMessage({
    senderType: 'user',
    onSuccess: () => refresh(chatMessagesQuery().queryKey),
    onError: (error) =>
      toast({
        title: 'Failed to send message',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });

  return (
    <div>
      <PageHeader
        title="Support Chat"
        description="Talk to our support team. We usually answer within minutes."
      />
      <Card className="flex h-[calc(100dvh-15rem)] min-h-96 flex-col overflow-hidden p-0">
        <div ref={listRef} className="flex-1 overflow-y-auto p-4" data-testid="chat-thread">
          {isLoading ? (
            <div className="flex h-full items-center justify-center">
              <Loader2Icon className="size-6 animate-spin text-muted-foreground" />
            </div>
          ) : messages?.length ? (
            <ol className="grid grid-cols-1 gap-3">
              {messages.map((m) => (
                <ChatBubble
                  key={m.id}
                  mine={m.senderType === 'user'}
                  label={m.senderType === 'user' ? 'You' : (m.senderName ?? 'Support')}
                  entry={m}
                />
              ))}
            </ol>
          ) : (
            <div className="flex h-full flex-col items-center justify-center gap-2 text-center text-muted-foreground">
              <HeadsetIcon className="size-10" />
              <p className="font-medium text-foreground">How can we help?</p>
              <p className="max-w-sm text-sm">
                Send us a message about a card or a payout. You can attach a photo or a PDF.
              </p>
            </div>
          )}
        </div>
        <ChatComposer
          sending={send.isPending}
          onSend={(message, attachment) => send.mutateAsync({ message, attachment })}
          onUploadError={(error) =>
            toast({
              title: 'Failed to upload attachment',
              description: error.message,
              variant: 'destructive',
            })
          }
        />
      </Card>
    </div>
  );
}

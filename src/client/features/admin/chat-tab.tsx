import { type AdminChatMessage, conversationName } from '@shared/support';
import { useMutation, useQuery } from '@tanstack/react-query';
import { MessagesSquareIcon, PaperclipIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { ChatBubble } from '@/components/chat/chat-bubble';
import { ChatComposer } from '@/components/chat/chat-composer';
import { useScrollToEnd } from '@/components/chat/use-scroll-to-end';
import { useSendChatMessage } from '@/components/chat/use-send-chat-message';
import { EmptyState } from '@/components/empty-state';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { apiRequest, serverMessage } from '@/lib/api';
import { formatDate, formatTime } from '@/lib/dates';
import { queryClient } from '@/lib/query-client';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { adminChatsQuery, adminStatsQuery } from './queries';

interface Conversation {
  userId: string;
  name: string;
  /** Newest first, as the API answers. */
  messages: AdminChatMessage[];
  userMessageCount: number;
}

/** Groups the newest-first message list by customer; conversations ordered by latest message. */
function groupConversations(messages: AdminChatMessage[]): Conversation[] {
  const byUser = new Map<string, Conversation>();
  for (const m of messages) {
    let conversation = byUser.get(m.userId);
    if (!conversation) {
      conversation = {
        userId: m.userId,
        name: conversationName(m),
        messages: [],
        userMessageCount: 0,
      };
      byUser.set(m.userId, conversation);
    }
    conversation.messages.push(m);
    if (m.senderType === 'user') conversation.userMessageCount += 1;
  }
  return [...byUser.values()];
}

const refreshChats = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: adminChatsQuery().queryKey }),
    queryClient.invalidateQueries({ queryKey: adminStatsQuery().queryKey }),
  ]);

const errorToast = (fallback: string) => (error: Error) =>
  toast({ title: 'Error', description: serverMessage(error) ?? fallback, variant: 'destructive' });

export function ChatTab() {
  const { data } = useQuery(adminChatsQuery());
  const conversations = React.useMemo(() => groupConversations(data ?? []), [data]);
  const [selected, setSelected] = React.useState<string | null>(null);
  const [confirming, setConfirming] = React.useState(false);
  const current = conversations.find((c) => c.userId === selected) ?? null;

  const send = useSendChatMessage({
    senderType: 'admin',
    userId: selected,
    onSuccess: async () => {
      await refreshChats();
      toast({ title: 'Message sent', description: 'Your response has been sent to the user' });
    },
    onError: errorToast('Failed to send message'),
  });

  const clear = useMutation({
    mutationFn: async () => (await apiRequest('DELETE', '/api/admin/chats', {})).json(),
    onSuccess: async () => {
      await refreshChats();
      setSelected(null);
      setConfirming(false);
      toast({ title: 'Success', description: 'All chat messages have been cleared' });
    },
    onError: errorToast('Failed to clear chats'),
  });

  if (data && conversations.length === 0) {
    return (
      <EmptyState icon={<MessagesSquareIcon />} testId="chats-empty">
        No chat messages yet
      </EmptyState>
    );
  }

  return (
    <div className="grid gap-4">
      <div className="flex justify-end">
        <Button variant="outline" onClick={() => setConfirming(true)} data-testid="clear-chats">
          <Trash2Icon className="text-destructive" /> Clear Chats
        </Button>
      </div>
      <div className="grid gap-4 md:grid-cols-[18rem_minmax(0,1fr)]">
        <ul className="h-[500px] overflow-y-auto rounded-lg border" data-testid="conversation-list">
          {conversations.map((c) => {
            const last = c.messages[0]!;
            return (
              <li key={c.userId}>
                <button
                  type="button"
                  onClick={() => setSelected(c.userId)}
                  className={cn(
                    'grid w-full gap-0.5 border-b px-3 py-2.5 text-left text-sm transition-colors hover:bg-muted/60',
                    c.userId === selected && 'bg-accent',
                  )}
                  data-testid="conversation"
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="truncate font-semibold">{c.name}</span>
                    {c.userMessageCount > 0 && (
                      <Badge className="shrink-0" data-testid="conversation-count">
                        {c.userMessageCount}
                      </Badge>
                    )}
                  </span>
                  <span className="flex items-center gap-1 truncate text-muted-foreground">
                    {last.message ? (
                      <span className="truncate">{last.message}</span>
                    ) : (
                      <>
                        <PaperclipIcon className="size-3.5 shrink-0" /> Attachment
                      </>
                    )}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {formatDate(last.createdAt)} {formatTime(last.createdAt)}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
        <section
          className="flex flex-col overflow-hidden rounded-lg border"
          aria-label="Conversation"
        >
          <h2 className="border-b px-4 py-3 font-semibold" data-testid="thread-title">
            {current ? `Chat with ${current.name}` : 'Select a conversation'}
          </h2>
          <Thread conversation={current} />
          <ChatComposer
            disabled={!current}
            sending={send.isPending}
            placeholder={current ? `Reply to ${current.name}...` : 'Select a conversation to reply'}
            onSend={(message, attachment) => send.mutateAsync({ message, attachment })}
            onUploadError={errorToast('Failed to upload attachment')}
          />
        </section>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Clear Chats"
        description="Are you sure you want to clear all chat messages? This action cannot be undone."
        confirmLabel="Clear Chats"
        pendingLabel="Clearing..."
        pending={clear.isPending}
        onConfirm={() => clear.mutate()}
      />
    </div>
  );
}

function Thread({ conversation }: { conversation: Conversation | null }) {
  // The API answers newest first; the thread reads oldest first.
  const ordered = conversation ? [...conversation.messages].reverse() : [];
  const ref = useScrollToEnd(ordered.length, conversation?.userId);
  return (
    <div ref={ref} className="h-[380px] overflow-y-auto p-4" data-testid="admin-thread">
      {conversation ? (
        <ol className="grid grid-cols-1 gap-3">
          {ordered.map((m) => (
            <ChatBubble
              key={m.id}
              mine={m.senderType === 'admin'}
              label={m.senderType === 'admin' ? (m.senderName ?? 'Support') : conversation.name}
              message={m.message}
              attachmentUrl={m.attachmentUrl}
              attachmentType={m.attachmentType}
              createdAt={m.createdAt}
            />
          ))}
        </ol>
      ) : (
        <p className="flex h-full items-center justify-center text-sm text-muted-foreground">
          Choose a conversation on the left.
        </p>
      )}
    </div>
  );
}

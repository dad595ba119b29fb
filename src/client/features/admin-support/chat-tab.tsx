import { type AdminConversation, type ChatMessage, conversationName } from '@shared/support';
import { useMutation, useQuery } from '@tanstack/react-query';
import { MessagesSquareIcon, PaperclipIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { ChatBubble } from '@/components/chat/chat-bubble';
import { ChatComposer } from '@/components/chat/chat-composer';
import { useScrollToEnd } from '@/components/chat/use-scroll-to-end';
import { useSendChatMessage } from '@/components/chat/use-send-chat-message';
import { EmptyState } from '@/components/empty-state';
import { Pager, useCursorPages } from '@/components/pager';
import { ColouredBadge } from '@/components/status-badge';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CustomerLink } from '@/features/admin-shared/customer-link';
import { adminStatsQuery } from '@/features/admin-shared/queries';
import { apiRequest } from '@/lib/api';
import { formatDate, formatTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { useStaffCan } from '@/lib/staff-role';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { adminConversationQuery, adminConversationsQuery, refreshChats } from './queries';

export function ChatTab() {
  const pages = useCursorPages();
  const { data } = useQuery(adminConversationsQuery(pages.cursor));
  const conversations = data?.items ?? [];
  const canClear = useStaffCan()('chat.clear');
  // The one chosen, kept while the list pages or refreshes under it.
  const [current, setCurrent] = React.useState<AdminConversation | null>(null);
  const selected = current?.userId ?? null;
  const [confirming, setConfirming] = React.useState(false);
  const currentName = current ? conversationName(current) : '';

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
      setCurrent(null);
      setConfirming(false);
      toast({ title: 'Success', description: 'All chat messages have been cleared' });
    },
    onError: errorToast('Failed to clear chats'),
  });

  if (data && conversations.length === 0 && pages.page === 1) {
    return (
      <EmptyState icon={<MessagesSquareIcon />} testId="chats-empty">
        No chat messages yet
      </EmptyState>
    );
  }

  return (
    <div className="grid gap-4">
      {canClear && (
        <div className="flex justify-end">
          <Button variant="outline" onClick={() => setConfirming(true)} data-testid="clear-chats">
            <Trash2Icon className="text-destructive" /> Clear Chats
          </Button>
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-[18rem_minmax(0,1fr)]">
        <div className="grid content-start gap-2">
          <ul
            className="h-[500px] overflow-y-auto rounded-lg border"
            data-testid="conversation-list"
          >
            {conversations.map((c) => (
              <li key={c.userId}>
                <button
                  type="button"
                  onClick={() => setCurrent(c)}
                  aria-pressed={c.userId === selected}
                  className={cn(
                    'grid w-full gap-0.5 border-b px-3 py-2.5 text-left text-sm transition-colors hover:bg-muted/60',
                    c.userId === selected && 'bg-accent',
                  )}
                  data-testid="conversation"
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="truncate font-semibold">{conversationName(c)}</span>
                    {c.unreadCount > 0 && (
                      <span className="shrink-0">
                        <Badge data-testid="conversation-count">{c.unreadCount}</Badge>
                        <span className="sr-only"> unread</span>
                      </span>
                    )}
                  </span>
                  <span className="flex items-center gap-1 truncate text-muted-foreground">
                    {c.lastMessage ? (
                      <span className="truncate">{c.lastMessage}</span>
                    ) : (
                      <>
                        <PaperclipIcon className="size-3.5 shrink-0" /> Attachment
                      </>
                    )}
                  </span>
                  <span className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
                    {formatDate(c.lastMessageAt)} {formatTime(c.lastMessageAt)}
                    {c.needsReply && (
                      <ColouredBadge colour="yellow" label="Needs reply" testId="needs-reply" />
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          <Pager pages={pages} count={conversations.length} nextCursor={data?.nextCursor} />
        </div>
        <section
          className="flex flex-col overflow-hidden rounded-lg border"
          aria-label="Conversation"
        >
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-b px-4 py-3">
            <h2 className="font-semibold" data-testid="thread-title">
              {current ? (
                <>
                  Chat with <CustomerLink userId={current.userId}>{currentName}</CustomerLink>
                </>
              ) : (
                'Select a conversation'
              )}
            </h2>
            {current && (
              <CustomerLink
                userId={current.userId}
                section="cards"
                className="text-sm text-primary underline"
                label={`Their cards (${currentName})`}
              >
                Their cards
              </CustomerLink>
            )}
          </div>
          <Thread userId={selected} name={currentName} />
          <ChatComposer
            disabled={!current}
            sending={send.isPending}
            placeholder={current ? `Reply to ${currentName}...` : 'Select a conversation to reply'}
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

function Thread({ userId, name }: { userId: string | null; name: string }) {
  const { data } = useQuery(adminConversationQuery(userId));
  const messages = userId ? (data ?? []) : [];
  const ref = useScrollToEnd(messages.length, userId);
  useMarkRead(userId, messages);
  return (
    <div ref={ref} className="h-[380px] overflow-y-auto p-4" data-testid="admin-thread">
      {userId ? (
        <ol className="grid grid-cols-1 gap-3">
          {messages.map((m) => (
            <ChatBubble
              key={m.id}
              mine={m.senderType === 'admin'}
              label={m.senderType === 'admin' ? (m.senderName ?? 'Support') : name}
              entry={m}
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

/** Whether the page is in front of the staff member (not a background tab or a hidden window). */
function usePageVisible() {
  const [visible, setVisible] = React.useState(() => document.visibilityState === 'visible');
  React.useEffect(() => {
    const update = () => setVisible(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

/**
 * An open thread reads the customer's messages: when it opens, and when new ones arrive while it
 * is open and in view. Only up to the newest message on screen, so one that lands meanwhile
 * stays unread until it is shown.
 */
function useMarkRead(userId: string | null, messages: ChatMessage[]) {
  const visible = usePageVisible();
  const sent = React.useRef<string | null>(null);
  const read = useMutation({
    mutationFn: async ({ userId, through }: { userId: string; through: string }) =>
      (
        await apiRequest('POST', `/api/admin/conversations/${userId}/read`, {
          throughMessageId: through,
        })
      ).json(),
    onSuccess: refreshChats,
    // Tried again with the next message or refresh; nothing to tell the staff member.
    onError: () => {
      sent.current = null;
    },
  });
  const last = messages.at(-1);
  const unread = messages.some((m) => m.senderType === 'user' && !m.isRead);
  const { mutate } = read;
  React.useEffect(() => {
    if (!userId || !last || !unread || !visible || sent.current === last.id) return;
    sent.current = last.id;
    mutate({ userId, through: last.id });
  }, [userId, last, unread, visible, mutate]);
}

/** The Chat Support tab's count: customer messages no staff member has read yet. */
export function ChatUnreadBadge() {
  const { data } = useQuery(adminStatsQuery());
  const unread = data?.unreadChatMessages ?? 0;
  if (unread === 0) return null;
  return (
    <>
      <Badge className="px-1.5 py-0 tabular-nums" data-testid="chat-unread-total">
        {unread}
      </Badge>
      <span className="sr-only"> unread</span>
    </>
  );
}

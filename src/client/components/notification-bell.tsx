import type { Notification, NotificationList } from '@shared/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { BellIcon, CheckCheckIcon } from 'lucide-react';
import * as React from 'react';
import { useLocation, useSearch } from 'wouter';
import { Button } from '@/components/ui/button';
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover';
import { apiRequest } from '@/lib/api';
import { notificationsQuery } from '@/lib/queries';
import { queryClient } from '@/lib/query-client';
import { cn } from '@/lib/utils';

/** The shell's bell: what staff did, newest first, with the unread count on it. */
export function NotificationBell() {
  const { data } = useQuery(notificationsQuery());
  const [open, setOpen] = React.useState(false);
  const [location, navigate] = useLocation();
  const search = useSearch();
  const markRead = useMutation({
    mutationFn: async (ids: string[]) =>
      (
        await apiRequest('POST', '/api/notifications/read', { ids })
      ).json() as Promise<NotificationList>,
    onSuccess: (list) => queryClient.setQueryData(notificationsQuery().queryKey, list),
  });
  const items = data?.items ?? [];
  // What is about the page being read (a chat reply while the chat is open) is read already: it
  // never raises the count, and is marked read on the server.
  const here = search ? `${location}?${search}` : location;
  const readHere = items.filter((n) => !n.read && n.link === here).map((n) => n.id);
  const unread = Math.max(0, (data?.unreadCount ?? 0) - readHere.length);
  const unreadIds = items.filter((n) => !n.read && !readHere.includes(n.id)).map((n) => n.id);
  const readHereKey = readHere.join(',');
  const { mutate } = markRead;
  React.useEffect(() => {
    if (readHereKey) mutate(readHereKey.split(','));
  }, [readHereKey, mutate]);

  const openItem = (item: Notification) => {
    if (!item.read) markRead.mutate([item.id]);
    setOpen(false);
    navigate(item.link);
  };

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
          data-testid="notification-bell"
        >
          <BellIcon className="size-5" />
          {unread > 0 && (
            <span
              className="absolute -right-0.5 -top-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-destructive px-1 text-[0.65rem] font-semibold text-destructive-foreground"
              data-testid="notification-count"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="p-0" aria-label="Notifications">
        <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
          <h2 className="text-sm font-semibold">Notifications</h2>
          {unreadIds.length > 0 && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => markRead.mutate(unreadIds)}
              disabled={markRead.isPending}
              data-testid="mark-all-read"
            >
              <CheckCheckIcon /> Mark all read
            </Button>
          )}
        </div>
        {items.length === 0 ? (
          <p className="px-4 py-8 text-center text-sm text-muted-foreground">
            Nothing yet. We will tell you here when staff review your cards.
          </p>
        ) : (
          <ul className="max-h-96 overflow-y-auto py-1" data-testid="notification-list">
            {items.map((item) => (
              <li key={item.id}>
                <button
                  type="button"
                  onClick={() => openItem(item)}
                  className={cn(
                    'flex w-full cursor-pointer gap-3 px-4 py-3 text-left hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
                    !item.read && 'bg-primary/5',
                  )}
                  data-testid="notification"
                >
                  <span
                    className={cn(
                      'mt-1.5 size-2 shrink-0 rounded-full',
                      item.read ? 'bg-transparent' : 'bg-primary',
                    )}
                    aria-hidden
                  />
                  <span className="grid min-w-0 gap-0.5">
                    <span className="text-sm font-medium wrap-anywhere">
                      {item.title}
                      {!item.read && <span className="sr-only"> (unread)</span>}
                    </span>
                    <span className="text-sm text-muted-foreground wrap-anywhere">{item.body}</span>
                    <span className="text-xs text-muted-foreground">
                      {formatDistanceToNow(new Date(item.createdAt), { addSuffix: true })}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </PopoverContent>
    </Popover>
  );
}

import { ADMIN_PAGE_SIZE, type AdminUser } from '@shared/admin';
import { useMutation, useQuery } from '@tanstack/react-query';
import { LogOutIcon, UsersIcon } from 'lucide-react';
import * as React from 'react';
import { DateTimeStack } from '@/components/date-time';
import { EmptyState } from '@/components/empty-state';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { VerifiedBadge } from '@/components/verified-badge';
import { apiRequest } from '@/lib/api';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';
import { Pager, useCursorPages } from './pager';
import { adminUsersQuery } from './queries';

export function UsersTab() {
  const pages = useCursorPages();
  const query = useQuery(adminUsersQuery(pages.cursor));
  const [ending, setEnding] = React.useState<AdminUser | null>(null);
  const endSessions = useMutation({
    mutationFn: async (user: AdminUser) =>
      (await (await apiRequest('POST', `/api/admin/users/${user.id}/sessions/revoke`)).json()) as {
        ended: number;
      },
    onSuccess: ({ ended }, user) => {
      setEnding(null);
      toast({
        title: 'Sessions ended',
        description: `${user.email} was signed out of ${ended} session${ended === 1 ? '' : 's'}.`,
      });
    },
    onError: errorToast('Could not end the sessions'),
  });
  const users = query.data?.items ?? [];
  if (query.isLoading) return <Skeleton className="h-48" />;
  if (users.length === 0) {
    return (
      <EmptyState icon={<UsersIcon />} testId="users-empty">
        No users yet
      </EmptyState>
    );
  }
  return (
    <div className="grid gap-4">
      <Table data-testid="users-table">
        <TableColumns
          columns={[
            'Signup Date & Time',
            'Name',
            'Email',
            'User ID',
            'Role',
            { label: 'Actions', srOnly: true },
          ]}
        />
        <TableBody>
          {users.map((u) => (
            <TableRow key={u.id} data-testid="user-row">
              <TableCell>
                <DateTimeStack value={u.createdAt} />
              </TableCell>
              <TableCell className="font-medium">
                {[u.firstName, u.lastName].filter(Boolean).join(' ') || '—'}
              </TableCell>
              <TableCell>
                <span className="mr-2">{u.email}</span>
                <VerifiedBadge verified={u.emailVerified} />
              </TableCell>
              <TableCell className="font-mono text-xs" title={u.id}>
                {u.id.slice(0, 12)}
              </TableCell>
              <TableCell>
                {u.isAdmin ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>}
              </TableCell>
              <TableCell className="text-right">
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setEnding(u)}
                  aria-label={`End sessions of ${u.email}`}
                  data-testid="end-user-sessions"
                >
                  <LogOutIcon /> End sessions
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={ending !== null}
        onOpenChange={(open) => !open && setEnding(null)}
        title="End every session of this customer?"
        description={
          ending
            ? `${ending.email} will be signed out on every browser and device, and must sign in again. This is recorded in the audit log.`
            : ''
        }
        confirmLabel="End sessions"
        pendingLabel="Ending..."
        pending={endSessions.isPending}
        onConfirm={() => ending && endSessions.mutate(ending)}
      />
      <Pager
        page={pages.page}
        count={users.length}
        pageSize={ADMIN_PAGE_SIZE}
        nextCursor={query.data?.nextCursor}
        onNext={pages.next}
        onPrevious={pages.previous}
      />
    </div>
  );
}

import type { AdminUser } from '@shared/admin';
import { useMutation, useQuery } from '@tanstack/react-query';
import { BanIcon, LogOutIcon, UserCheckIcon, UsersIcon, UserXIcon } from 'lucide-react';
import * as React from 'react';
import { DateTimeStack } from '@/components/date-time';
import { EmptyState } from '@/components/empty-state';
import { Pager, useCursorPages } from '@/components/pager';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { TextareaField } from '@/components/ui/text-field';
import { VerifiedBadge } from '@/components/verified-badge';
import { CustomerLink } from '@/features/admin-shared/customer-link';
import { StandingBadge } from '@/features/admin-shared/standing-badge';
import { useTextInput } from '@/hooks/use-text-input';
import { apiRequest } from '@/lib/api';
import { errorToast } from '@/lib/error-toast';
import { useStaffCan } from '@/lib/staff-role';
import { toast } from '@/lib/toast';
import { adminUsersQuery, refreshUsers } from './queries';

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
  const [standing, setStanding] = React.useState<{
    user: AdminUser;
    action: StandingAction;
  } | null>(null);
  const reason = useTextInput();
  const note = useTextInput();
  const changeStanding = useMutation({
    mutationFn: async ({ user, action }: { user: AdminUser; action: StandingAction }) =>
      (
        await apiRequest(
          'POST',
          `/api/admin/users/${user.id}/${action}`,
          action === 'reinstate'
            ? undefined
            : { reason: reason.value.trim(), note: note.value.trim() || null },
        )
      ).json(),
    onSuccess: async (_data, { user, action }) => {
      setStanding(null);
      await refreshUsers();
      toast({ title: `${user.email} ${STANDING_DONE[action]}` });
    },
    onError: errorToast('Could not change the account'),
  });
  const openStanding = (user: AdminUser, action: StandingAction) => {
    reason.set('');
    note.set('');
    setStanding({ user, action });
  };
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
            'Level',
            'Standing',
            { label: 'Actions', srOnly: true },
          ]}
        />
        <TableBody>
          {users.map((u) => (
            <UserRow
              key={u.id}
              user={u}
              onStanding={(action) => openStanding(u, action)}
              onEndSessions={() => setEnding(u)}
            />
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
      <ConfirmDialog
        open={standing !== null}
        onOpenChange={(open) => !open && setStanding(null)}
        title={standing ? STANDING_TITLES[standing.action] : ''}
        description={standing ? STANDING_TEXTS[standing.action](standing.user.email) : ''}
        confirmLabel={standing ? STANDING_LABELS[standing.action] : ''}
        pendingLabel="Saving..."
        pending={changeStanding.isPending}
        onConfirm={() => {
          if (!standing) return;
          if (standing.action !== 'reinstate' && !reason.value.trim()) {
            toast({ title: 'Give a reason', variant: 'destructive' });
            return;
          }
          changeStanding.mutate(standing);
        }}
      >
        {standing && standing.action !== 'reinstate' && (
          <div className="grid gap-3">
            <TextareaField
              id="standing-reason"
              label="Reason (the customer reads it)"
              maxLength={500}
              {...reason.input}
            />
            <TextareaField
              id="standing-note"
              label="Note for staff (optional)"
              maxLength={2000}
              {...note.input}
            />
          </div>
        )}
      </ConfirmDialog>
      <Pager pages={pages} count={users.length} nextCursor={query.data?.nextCursor} />
    </div>
  );
}

/** One account: who, since when, role, level and standing, and what staff may do to it. */
function UserRow({
  user: u,
  onStanding,
  onEndSessions,
}: {
  user: AdminUser;
  onStanding: (action: StandingAction) => void;
  onEndSessions: () => void;
}) {
  const can = useStaffCan();
  return (
    <TableRow data-testid="user-row">
      <TableCell>
        <DateTimeStack value={u.createdAt} />
      </TableCell>
      <TableCell className="font-medium">
        <CustomerLink userId={u.id}>
          {[u.firstName, u.lastName].filter(Boolean).join(' ') || '—'}
        </CustomerLink>
      </TableCell>
      <TableCell>
        <CustomerLink userId={u.id} className="mr-2">
          {u.email}
        </CustomerLink>
        <VerifiedBadge verified={u.emailVerified} />
      </TableCell>
      <TableCell className="font-mono text-xs" title={u.id}>
        {u.id.slice(0, 12)}
      </TableCell>
      <TableCell>
        {u.isAdmin ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>}
      </TableCell>
      <TableCell className="tabular-nums">{u.isAdmin ? '—' : u.verificationLevel}</TableCell>
      <TableCell>
        <StandingBadge standing={u.standing} reason={u.standingReason} testId="standing-badge" />
      </TableCell>
      <TableCell className="whitespace-nowrap text-right">
        {!u.isAdmin &&
          can('users.standing') &&
          (u.standing === 'active' ? (
            <>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => onStanding('suspend')}
                data-testid="suspend-user"
                aria-label={`Suspend ${u.email}`}
                title="Suspend"
              >
                <BanIcon />
              </Button>
              {can('users.close') && (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => onStanding('close')}
                  data-testid="close-user"
                  aria-label={`Close ${u.email}`}
                  title="Close"
                >
                  <UserXIcon />
                </Button>
              )}
            </>
          ) : (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => onStanding('reinstate')}
              data-testid="reinstate-user"
              aria-label={`Reinstate ${u.email}`}
              title="Reinstate"
            >
              <UserCheckIcon />
            </Button>
          ))}
        {can('users.standing') && (
          <Button
            variant="ghost"
            size="sm"
            onClick={onEndSessions}
            aria-label={`End sessions of ${u.email}`}
            data-testid="end-user-sessions"
          >
            <LogOutIcon /> End sessions
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

type StandingAction = 'suspend' | 'close' | 'reinstate';
const STANDING_TITLES: Record<StandingAction, string> = {
  suspend: 'Suspend this customer?',
  close: 'Close this account?',
  reinstate: 'Reinstate this customer?',
};
const STANDING_LABELS: Record<StandingAction, string> = {
  suspend: 'Suspend',
  close: 'Close account',
  reinstate: 'Reinstate',
};
const STANDING_DONE: Record<StandingAction, string> = {
  suspend: 'is suspended',
  close: 'is closed',
  reinstate: 'is active again',
};
const STANDING_TEXTS: Record<StandingAction, (email: string) => string> = {
  suspend: (email) =>
    `${email} can still sign in, read their history, chat and open tickets, but cannot submit cards, change payment methods or be paid. They are emailed the reason; this is audited.`,
  close: (email) =>
    `Every session of ${email} ends and sign-in is refused; their pending cards are rejected as "Account closed", approved cards still owed stay payable. They are emailed; this is audited.`,
  reinstate: (email) => `${email} may sell and be paid again. They are emailed; this is audited.`,
};

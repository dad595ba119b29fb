import { type StaffMember, staffInvitationSchema } from '@shared/staff';
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '@shared/staff-roles';
import { displayName } from '@shared/user-display';
import { useMutation, useQuery } from '@tanstack/react-query';
import { SendIcon, UserMinusIcon, UserPlusIcon, UserRoundCheckIcon } from 'lucide-react';
import * as React from 'react';
import { DateTimeStack } from '@/components/date-time';
import { FormActions } from '@/components/form-actions';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { TextField } from '@/components/ui/text-field';
import { apiRequest } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { errorToast } from '@/lib/error-toast';
import { toast } from '@/lib/toast';
import { refreshStaff, staffQuery } from './queries';

/** The Staff tab (owners only, decision 077): who works here, their role, and invitations. */
export function StaffTab() {
  const { data, isLoading } = useQuery(staffQuery());
  const { user } = useAuth();
  const [inviting, setInviting] = React.useState(false);
  const [leaving, setLeaving] = React.useState<StaffMember | null>(null);
  const update = useMutation({
    mutationFn: async ({
      id,
      body,
    }: {
      id: string;
      body: { role?: StaffRole; active?: boolean };
    }) =>
      (await apiRequest('PATCH', `/api/admin/staff/${id}`, body)).json() as Promise<StaffMember>,
    onSuccess: async (member, { body }) => {
      setLeaving(null);
      await refreshStaff();
      toast({
        title:
          body.active === false
            ? `${member.email} deactivated`
            : body.active
              ? `${member.email} active again`
              : `${member.email} is now ${STAFF_ROLE_LABELS[member.role].toLowerCase()}`,
      });
    },
    onError: errorToast('Could not change the staff member'),
  });
  if (isLoading) return <Skeleton className="h-48" />;
  return (
    <div className="grid gap-4" data-testid="staff-tab">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-prose text-sm text-muted-foreground">
          Each role sees only the tabs and actions it needs. There is always one active owner.
        </p>
        <Button onClick={() => setInviting(true)} data-testid="invite-staff">
          <UserPlusIcon /> Invite
        </Button>
      </div>
      <Table data-testid="staff-table">
        <TableColumns
          columns={[
            'Name',
            'Role',
            'Two-factor',
            'Last sign-in',
            'Status',
            { label: 'Actions', srOnly: true },
          ]}
        />
        <TableBody>
          {(data ?? []).map((m) => (
            <TableRow key={m.id} data-testid="staff-row">
              <TableCell>
                <span className="block font-medium">
                  {m.firstName || m.lastName ? displayName(m) : '—'}
                </span>
                <span className="block max-w-56 truncate text-xs text-muted-foreground">
                  {m.email}
                </span>
              </TableCell>
              <TableCell>
                <NativeSelect
                  aria-label={`Role of ${m.email}`}
                  value={m.role}
                  disabled={update.isPending || !m.active}
                  onChange={(e) =>
                    update.mutate({ id: m.id, body: { role: e.target.value as StaffRole } })
                  }
                  className="min-w-28"
                >
                  {STAFF_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {STAFF_ROLE_LABELS[role]}
                    </option>
                  ))}
                </NativeSelect>
              </TableCell>
              <TableCell>
                {m.twoFactorEnabled ? (
                  <Badge variant="secondary">On</Badge>
                ) : (
                  <Badge variant="outline">Not set up</Badge>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap text-sm">
                {m.lastSignInAt ? <DateTimeStack value={m.lastSignInAt} /> : 'Never'}
              </TableCell>
              <TableCell>
                {m.invitationPending ? (
                  <Badge variant="outline">Invited</Badge>
                ) : m.active ? (
                  <Badge variant="secondary">Active</Badge>
                ) : (
                  <Badge variant="outline" className="text-destructive">
                    Deactivated
                  </Badge>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap text-right">
                {m.invitationPending && <ResendInvitation member={m} />}
                {m.id !== user?.id &&
                  (m.active || m.invitationPending ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setLeaving(m)}
                      aria-label={`Deactivate ${m.email}`}
                      data-testid="deactivate-staff"
                    >
                      <UserMinusIcon /> Deactivate
                    </Button>
                  ) : (
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={update.isPending}
                      onClick={() => update.mutate({ id: m.id, body: { active: true } })}
                      aria-label={`Reactivate ${m.email}`}
                    >
                      <UserRoundCheckIcon /> Reactivate
                    </Button>
                  ))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <InviteDialog open={inviting} onOpenChange={setInviting} />
      <ConfirmDialog
        open={leaving !== null}
        onOpenChange={(open) => !open && setLeaving(null)}
        title={`Deactivate ${leaving?.email ?? ''}?`}
        description="They are signed out at once, everywhere, and cannot sign in until reactivated."
        confirmLabel="Deactivate"
        pendingLabel="Deactivating..."
        pending={update.isPending}
        onConfirm={() => leaving && update.mutate({ id: leaving.id, body: { active: false } })}
      />
    </div>
  );
}

/** Sends a pending invitation again (issue 43, item 14): a new link; the old one stops working. */
function ResendInvitation({ member }: { member: StaffMember }) {
  const resend = useMutation({
    mutationFn: async () =>
      (await apiRequest('POST', `/api/admin/staff/${member.id}/invitation`)).json(),
    onSuccess: async () => {
      await refreshStaff();
      toast({ title: 'Invitation sent again', description: `A new link went to ${member.email}.` });
    },
    onError: errorToast('Could not send the invitation again'),
  });
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={resend.isPending}
      onClick={() => resend.mutate()}
      aria-label={`Resend the invitation to ${member.email}`}
      data-testid="resend-invitation"
    >
      <SendIcon /> Resend
    </Button>
  );
}

function InviteDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const [email, setEmail] = React.useState('');
  const [role, setRole] = React.useState<StaffRole>('reviewer');
  const [error, setError] = React.useState<string | undefined>();
  const invite = useMutation({
    mutationFn: async () =>
      (await apiRequest('POST', '/api/admin/staff/invitations', { email, role })).json(),
    onSuccess: async () => {
      toast({ title: 'Invitation sent', description: `${email} has 72 hours to accept.` });
      setEmail('');
      onOpenChange(false);
      await refreshStaff();
    },
    onError: errorToast('Could not send the invitation'),
  });
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      data-testid="invite-dialog"
      title="Invite a staff member"
      description="They get an email with a link, valid for 72 hours, to choose a name and password."
    >
      <form
        className="grid gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = staffInvitationSchema.safeParse({ email, role });
          setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
          if (parsed.success) invite.mutate();
        }}
      >
        <TextField
          id="invite-email"
          label="Email"
          error={error}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Field id="invite-role" label="Role">
          <NativeSelect
            id="invite-role"
            value={role}
            onChange={(e) => setRole(e.target.value as StaffRole)}
          >
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {STAFF_ROLE_LABELS[r]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <FormActions
          label="Send invitation"
          pending={invite.isPending}
          pendingLabel="Sending..."
          onCancel={() => onOpenChange(false)}
          testId="send-invitation"
        />
      </form>
    </DialogFrame>
  );
}

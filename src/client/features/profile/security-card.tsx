import { newPasswordProblem } from '@shared/auth-rules';
import type { SessionInfo } from '@shared/sessions';
import { useMutation, useQuery } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { LaptopIcon, LogOutIcon, SmartphoneIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { CurrentPasswordField, NewPasswordFields } from '@/components/form-text-field';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, SubmitButton } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { apiRequest, serverMessage } from '@/lib/api';
import { refreshCurrentUser } from '@/lib/auth';
import { formatDateTime } from '@/lib/dates';
import { problemsResolver } from '@/lib/form';
import { refresh, sessionsQuery } from '@/lib/queries';
import { toast } from '@/lib/toast';

type PasswordValues = { currentPassword: string; newPassword: string; confirm: string };

const passwordProblems = (v: PasswordValues) => ({
  currentPassword: v.currentPassword ? undefined : 'Current password is required',
  newPassword: newPasswordProblem(v.newPassword),
  confirm: v.newPassword === v.confirm ? undefined : 'The two passwords are not the same',
});

const refreshSessions = () => refresh(sessionsQuery().queryKey);

/** Change the password: the other sessions end, this one stays. */
export function ChangePasswordCard() {
  const form = useForm<PasswordValues>({
    resolver: problemsResolver(passwordProblems),
    defaultValues: { currentPassword: '', newPassword: '', confirm: '' },
  });
  const submit = async ({ currentPassword, newPassword }: PasswordValues) => {
    try {
      const answer = (await (
        await apiRequest('POST', '/api/password/change', { currentPassword, newPassword })
      ).json()) as { endedSessions: number };
      form.reset();
      await refreshSessions();
      toast({
        title: 'Password changed',
        description:
          answer.endedSessions > 0
            ? `${answer.endedSessions} other session${answer.endedSessions === 1 ? ' was' : 's were'} signed out.`
            : 'Use it the next time you sign in.',
      });
    } catch (error) {
      const message = serverMessage(error) ?? 'Could not change the password';
      if (/current password/i.test(message)) form.setError('currentPassword', { message });
      else if (/password/i.test(message) && !/too many/i.test(message)) {
        form.setError('newPassword', { message });
      } else {
        toast({
          title: 'Could not change the password',
          description: message,
          variant: 'destructive',
        });
      }
    }
  };
  const { isSubmitting } = form.formState;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>Changing it signs out every other browser and device.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid max-w-md gap-4" noValidate onSubmit={form.handleSubmit(submit)}>
          <CurrentPasswordField
            form={form}
            name="currentPassword"
            id="current-password"
            label="Current password"
          />
          <NewPasswordFields
            form={form}
            name="newPassword"
            idPrefix="new"
            label="New password"
            placeholder="Min. 8 characters"
          />
          <SubmitButton pending={isSubmitting} className="w-fit">
            Change password
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}

const isPhone = (system: string | null) => !!system && /iOS|Android/i.test(system);

/** Where the account is signed in, and a way to end any of it. */
export function SessionsCard() {
  const { data: sessions, isLoading } = useQuery(sessionsQuery());
  const [confirmOthers, setConfirmOthers] = React.useState(false);
  const end = useMutation({
    mutationFn: (session: SessionInfo) => apiRequest('DELETE', `/api/sessions/${session.id}`),
    onSuccess: async (_answer, session) => {
      if (session.current) {
        await refreshCurrentUser();
        return;
      }
      await refreshSessions();
      toast({ title: 'Session ended', description: 'That browser is signed out.' });
    },
    onError: (error) =>
      toast({
        title: 'Could not end the session',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
  const endOthers = useMutation({
    mutationFn: async () =>
      (await (await apiRequest('POST', '/api/sessions/revoke-others')).json()) as { ended: number },
    onSuccess: async ({ ended }) => {
      setConfirmOthers(false);
      await refreshSessions();
      toast({
        title: 'Signed out elsewhere',
        description: `${ended} other session${ended === 1 ? '' : 's'} ended.`,
      });
    },
    onError: (error) =>
      toast({
        title: 'Could not end the sessions',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
  const others = (sessions ?? []).filter((s) => !s.current).length;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Where you are signed in</CardTitle>
          <CardDescription>
            End any session you do not recognise, then change your password.
          </CardDescription>
        </div>
        {others > 0 && (
          <Button
            variant="outline"
            onClick={() => setConfirmOthers(true)}
            data-testid="end-other-sessions"
          >
            <LogOutIcon /> Sign out other sessions
          </Button>
        )}
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <Skeleton className="h-20" />
        ) : (
          <ul className="grid gap-3" data-testid="session-list">
            {(sessions ?? []).map((session) => {
              const Icon = isPhone(session.system) ? SmartphoneIcon : LaptopIcon;
              const what =
                [session.browser, session.system].filter(Boolean).join(' on ') || 'Unknown browser';
              return (
                <li
                  key={session.id}
                  className="flex items-center gap-3 rounded-lg border p-3 sm:gap-4 sm:p-4"
                  data-testid="session"
                >
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                    <Icon className="size-5" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      <span className="wrap-anywhere">{what}</span>
                      {session.current && <Badge data-testid="this-session">This device</Badge>}
                    </p>
                    <p className="text-sm text-muted-foreground">
                      Signed in {formatDateTime(session.createdAt)}
                      {session.ipAddress ? ` from ${session.ipAddress}` : ''}
                    </p>
                    <p className="text-sm text-muted-foreground">
                      {session.current
                        ? 'Active now'
                        : `Last active ${formatDistanceToNow(new Date(session.lastSeenAt), { addSuffix: true })}`}
                    </p>
                  </div>
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={end.isPending}
                    onClick={() => end.mutate(session)}
                    aria-label={
                      session.current ? 'Sign out of this device' : `End session: ${what}`
                    }
                  >
                    {session.current ? 'Sign out' : 'End'}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirmOthers}
        onOpenChange={setConfirmOthers}
        title="Sign out every other session?"
        description={`${others} other browser${others === 1 ? '' : 's'} or device${others === 1 ? '' : 's'} will be signed out. This one stays signed in.`}
        confirmLabel="Sign them out"
        pendingLabel="Signing out..."
        pending={endOthers.isPending}
        onConfirm={() => endOthers.mutate()}
      />
    </Card>
  );
}

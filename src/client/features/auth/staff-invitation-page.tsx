import type { StaffInvitationPreview } from '@shared/staff';
import { STAFF_ROLE_LABELS } from '@shared/staff-roles';
import { UserPlusIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useSearch } from 'wouter';
import { FormAlert, FormTextField, NewPasswordFields } from '@/components/form-text-field';
import { SubmitButton } from '@/components/ui/button';
import { apiRequest, serverMessage } from '@/lib/api';
import { problemsResolver } from '@/lib/form';
import { AuthCardPage, AuthDonePage } from './auth-card-page';
import { newPasswordProblems, showNewPasswordFailure } from './new-password';

type Values = { firstName: string; lastName: string; password: string; confirm: string };

const problems = ({ firstName, lastName, password, confirm }: Values) => ({
  firstName: firstName.trim() ? undefined : 'First name is required',
  lastName: lastName.trim() ? undefined : 'Last name is required',
  ...newPasswordProblems({ password, confirm }),
});

/**
 * Which email and role the link is for (issue 43, item 14), read without using the link up; a
 * dead link says so before anyone types a password.
 */
function InvitationFor({ token }: { token: string }) {
  const [invitation, setInvitation] = React.useState<StaffInvitationPreview | 'dead' | null>(null);
  React.useEffect(() => {
    let live = true;
    apiRequest('POST', '/api/staff-invitations/preview', { token })
      .then((res) => res.json() as Promise<StaffInvitationPreview>)
      .then((found) => live && setInvitation(found))
      .catch(() => live && setInvitation('dead'));
    return () => {
      live = false;
    };
  }, [token]);
  if (invitation === null) return null;
  if (invitation === 'dead') {
    return (
      <p className="text-sm text-destructive" role="alert" data-testid="invitation-for">
        This invitation link is not valid or has expired. Ask an owner for a new one.
      </p>
    );
  }
  return (
    <p className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="invitation-for">
      For <strong className="wrap-anywhere">{invitation.email}</strong>, joining as{' '}
      <strong>{STAFF_ROLE_LABELS[invitation.role].toLowerCase()}</strong>.
    </p>
  );
}

/**
 * /staff-invitation?token=…: the page an owner's invitation links to (decision 077). The invitee
 * chooses a name and password, then signs in at the staff portal, which enrols two-factor.
 */
export function StaffInvitationPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [done, setDone] = React.useState<{ email: string } | null>(null);
  const [failure, setFailure] = React.useState<string | null>(null);
  const form = useForm<Values>({
    resolver: problemsResolver(problems),
    defaultValues: { firstName: '', lastName: '', password: '', confirm: '' },
  });
  const submit = async ({ firstName, lastName, password }: Values) => {
    setFailure(null);
    try {
      const user = await (
        await apiRequest('POST', '/api/staff-invitations/accept', {
          token,
          password,
          firstName: firstName.trim(),
          lastName: lastName.trim(),
        })
      ).json();
      setDone(user);
    } catch (error) {
      const message = serverMessage(error) ?? 'Could not accept the invitation. Please try again.';
      showNewPasswordFailure(message, (m) => form.setError('password', { message: m }), setFailure);
    }
  };

  if (done) {
    return (
      <AuthDonePage
        title="Welcome aboard"
        testId="staff-invitation-page"
        href="/admin/login"
        action="Sign in to the staff portal"
      >
        Your staff account {done.email} is ready. Sign in now: you will set up two-factor sign-in
        with an authenticator app.
      </AuthDonePage>
    );
  }
  return (
    <AuthCardPage
      icon={<UserPlusIcon />}
      title="Join the staff"
      description="Choose your name and a password (at least 8 characters)."
      testId="staff-invitation-page"
    >
      {token && <InvitationFor token={token} />}
      {!token ? (
        <p className="text-sm text-destructive" role="alert">
          This link is incomplete. Open the link from the email again.
        </p>
      ) : (
        <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(submit)}>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormTextField
              form={form}
              name="firstName"
              id="invite-first-name"
              label="First name"
              autoComplete="given-name"
            />
            <FormTextField
              form={form}
              name="lastName"
              id="invite-last-name"
              label="Last name"
              autoComplete="family-name"
            />
          </div>
          <NewPasswordFields form={form} name="password" idPrefix="invite" label="Password" />
          <FormAlert message={failure} />
          <SubmitButton pending={form.formState.isSubmitting} className="w-full">
            Create my staff account
          </SubmitButton>
        </form>
      )}
    </AuthCardPage>
  );
}

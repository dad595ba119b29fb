import { KeyRoundIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearch } from 'wouter';
import { FormAlert, NewPasswordFields } from '@/components/form-text-field';
import { Button, SubmitButton } from '@/components/ui/button';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { refreshCurrentUser } from '@/lib/auth';
import { problemsResolver } from '@/lib/form';
import { AuthCardPage, AuthDonePage } from './auth-card-page';
import { newPasswordProblems, showNewPasswordFailure } from './new-password';

type Values = { password: string; confirm: string };

/** /reset-password?token=…: the page the reset email links to. */
export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [done, setDone] = React.useState<{ message: string; account: string } | null>(null);
  const [failure, setFailure] = React.useState<string | null>(null);
  // Asked on opening: a link already used (or replaced, or expired) says so before any typing.
  const [deadLink, setDeadLink] = React.useState<string | null>(null);
  React.useEffect(() => {
    if (!token) return;
    let live = true;
    apiRequest('POST', '/api/password/reset/check', { token }).catch((error) => {
      // Only a refusal of the link itself; a network failure leaves the form to try.
      if (live && error instanceof ApiError && error.status === 400) {
        setDeadLink(serverMessage(error) ?? 'This link no longer works. Ask for a new one.');
      }
    });
    return () => {
      live = false;
    };
  }, [token]);
  const form = useForm<Values>({
    resolver: problemsResolver(newPasswordProblems),
    defaultValues: { password: '', confirm: '' },
  });
  const submit = async ({ password }: Values) => {
    setFailure(null);
    try {
      const answer = await (
        await apiRequest('POST', '/api/password/reset', { token, password })
      ).json();
      setDone(answer);
      // Every session of the account ended, this browser's too if it was signed in as it.
      await refreshCurrentUser();
    } catch (error) {
      const message = serverMessage(error) ?? 'Could not change the password. Please try again.';
      showNewPasswordFailure(message, (m) => form.setError('password', { message: m }), setFailure);
    }
  };

  if (done) {
    return (
      <AuthDonePage
        title="Password changed"
        testId="reset-password-page"
        href={done.account === 'staff' ? '/admin/login' : '/?auth=signin'}
        action="Sign in"
      >
        {done.message}
      </AuthDonePage>
    );
  }
  return (
    <AuthCardPage
      icon={<KeyRoundIcon />}
      title={deadLink ? 'This link no longer works' : 'Choose a new password'}
      description={
        deadLink
          ? undefined
          : 'At least 8 characters. Setting it signs your account out everywhere.'
      }
      testId="reset-password-page"
    >
      {!token || deadLink ? (
        <div className="grid gap-3 text-sm" role="alert" data-testid="reset-link-dead">
          <p className="text-destructive">
            {deadLink ??
              'This link is incomplete. Open the link from the email again, or ask for a new one.'}
          </p>
          <Button asChild variant="outline" className="w-full">
            <Link href="/?auth=signin">Ask for a new link</Link>
          </Button>
        </div>
      ) : (
        <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(submit)}>
          <NewPasswordFields form={form} name="password" idPrefix="reset" label="New password" />
          <FormAlert message={failure} />
          <SubmitButton pending={form.formState.isSubmitting} className="w-full">
            Set new password
          </SubmitButton>
        </form>
      )}
      <Link href="/" className="text-center text-sm text-muted-foreground hover:text-foreground">
        Back to the home page
      </Link>
    </AuthCardPage>
  );
}

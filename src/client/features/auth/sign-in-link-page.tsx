import type { CurrentUser, TwoFactorChallenge } from '@shared/auth-schemas';
import { LogInIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { FormAlert } from '@/components/form-text-field';
import { Button } from '@/components/ui/button';
import { apiRequest, serverMessage } from '@/lib/api';
import { refreshCurrentUser } from '@/lib/auth';
import { AuthCardPage } from './auth-card-page';

const TwoFactorStep = React.lazy(async () => ({
  default: (await import('./two-factor-step')).TwoFactorStep,
}));

/**
 * /sign-in-link?token=…: the page the email to a locked account's owner links to. The link is
 * used only when the owner presses the button, not when a mail scanner opens the page; staff then
 * give their second factor as at every sign-in.
 */
export function SignInLinkPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [, navigate] = useLocation();
  const [pending, setPending] = React.useState(false);
  const [failure, setFailure] = React.useState<string | null>(null);
  const [challenge, setChallenge] = React.useState<TwoFactorChallenge | null>(null);

  const signIn = async () => {
    setPending(true);
    setFailure(null);
    try {
      const answer = (await (await apiRequest('POST', '/api/signin/link', { token })).json()) as
        | CurrentUser
        | TwoFactorChallenge;
      if ('twoFactorRequired' in answer) {
        setChallenge(answer);
        return;
      }
      await refreshCurrentUser();
      navigate('/');
    } catch (error) {
      setFailure(serverMessage(error) ?? 'This link did not work. Please try again.');
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthCardPage
      icon={<LogInIcon />}
      title="Sign in with your link"
      description={
        challenge
          ? 'Staff sign-in: now the code from your authenticator app.'
          : 'Sign-in with a password is paused on your account after many wrong attempts. This link signs you in once.'
      }
      testId="sign-in-link-page"
    >
      {challenge ? (
        <React.Suspense fallback={<p className="text-sm text-muted-foreground">Loading…</p>}>
          <TwoFactorStep
            challenge={challenge}
            onSuccess={() => navigate('/admin')}
            onRestart={() => navigate('/admin/login')}
          />
        </React.Suspense>
      ) : (
        <>
          <FormAlert message={failure} />
          <Button className="w-full" onClick={signIn} disabled={pending || !token}>
            {pending ? 'Signing in…' : 'Sign me in'}
          </Button>
          <Link
            href="/"
            className="text-center text-sm text-muted-foreground hover:text-foreground"
          >
            Back to the home page
          </Link>
        </>
      )}
    </AuthCardPage>
  );
}

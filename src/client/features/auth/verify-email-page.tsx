import { CheckCircle2Icon, MailWarningIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useSearch } from 'wouter';
import { Button } from '@/components/ui/button';
import { apiRequest, serverMessage } from '@/lib/api';
import { refreshCurrentUser, useAuth } from '@/lib/auth';
import { AuthCardPage } from './auth-card-page';

type State = { status: 'checking' } | { status: 'done' | 'failed'; message: string };

/** /verify-email?token=…: the page the confirmation email links to; it confirms on opening. */
export function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const { user } = useAuth();
  const [state, setState] = React.useState<State>({ status: 'checking' });
  const sent = React.useRef(false);
  React.useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    (async () => {
      try {
        const answer = (await (
          await apiRequest('POST', '/api/email/verify', { token })
        ).json()) as { message: string };
        setState({ status: 'done', message: answer.message });
        await refreshCurrentUser();
      } catch (error) {
        setState({
          status: 'failed',
          message: serverMessage(error) ?? 'This link did not work. Please try again.',
        });
      }
    })();
  }, [token]);

  return (
    <AuthCardPage
      icon={state.status === 'failed' ? <MailWarningIcon /> : <CheckCircle2Icon />}
      title={
        state.status === 'checking'
          ? 'Confirming your email…'
          : state.status === 'done'
            ? 'Email confirmed'
            : 'Link not valid'
      }
      testId="verify-email-page"
    >
      {state.status !== 'checking' && (
        <p
          className={`text-center text-sm ${state.status === 'failed' ? 'text-destructive' : 'text-muted-foreground'}`}
          role="status"
        >
          {state.message}
        </p>
      )}
      <Button asChild className="w-full">
        <Link href={user ? '/' : '/?auth=signin'}>{user ? 'Go to Dashboard' : 'Sign in'}</Link>
      </Button>
    </AuthCardPage>
  );
}

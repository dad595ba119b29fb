import { MailIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { apiRequest, serverMessage } from '@/lib/api';
import { useAuth } from '@/lib/auth';
import { toast } from '@/lib/toast';

/** Until a customer opens the link mailed at sign-up: a reminder, and a way to get a new link. */
export function VerifyEmailBanner() {
  const { user } = useAuth();
  const [pending, setPending] = React.useState(false);
  if (!user || user.isAdmin || user.emailVerified) return null;
  const resend = async () => {
    setPending(true);
    try {
      const answer = (await (await apiRequest('POST', '/api/email/verify/resend')).json()) as {
        message: string;
      };
      toast({ title: 'Link sent', description: answer.message });
    } catch (error) {
      toast({
        title: 'Could not send the link',
        description: serverMessage(error) ?? 'Please try again later.',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  };
  return (
    <div
      className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b bg-amber-50 px-4 py-2.5 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100 sm:px-6"
      role="status"
      data-testid="verify-email-banner"
    >
      <MailIcon className="size-4 shrink-0" aria-hidden />
      <p className="min-w-0 flex-1 wrap-anywhere">
        Please confirm your email address: we sent a link to <strong>{user.email}</strong>.
      </p>
      <Button size="sm" variant="outline" onClick={resend} disabled={pending}>
        {pending ? 'Sending...' : 'Resend link'}
      </Button>
    </div>
  );
}

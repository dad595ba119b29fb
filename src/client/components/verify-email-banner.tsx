import { MailIcon } from 'lucide-react';
import * as React from 'react';
import { PageBanner } from '@/components/page-banner';
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
    <PageBanner
      tone="warning"
      icon={MailIcon}
      role="status"
      testId="verify-email-banner"
      textClassName="wrap-anywhere"
      action={
        <Button size="sm" variant="outline" onClick={resend} disabled={pending}>
          {pending ? 'Sending...' : 'Resend link'}
        </Button>
      }
    >
      Please confirm your email address: we sent a link to <strong>{user.email}</strong>.
    </PageBanner>
  );
}

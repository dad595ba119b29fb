import { LockIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { CurrentPasswordField } from '@/components/ui/text-field';
import { apiRequest, serverMessage } from '@/lib/api';
import { finishReauth, onReauthRequest } from '@/lib/reauth';

/** Asks for the password again before a payment-method change (decision 072) or an API key. */
export function ReauthDialog() {
  const [open, setOpen] = React.useState(false);
  const [password, setPassword] = React.useState('');
  const [error, setError] = React.useState<string>();
  const [pending, setPending] = React.useState(false);
  const [reason, setReason] = React.useState<string>();
  React.useEffect(
    () =>
      onReauthRequest((next, why) => {
        setOpen(next);
        if (next) {
          setPassword('');
          setError(undefined);
          setReason(why);
        }
      }),
    [],
  );
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      await apiRequest('POST', '/api/reauth', { password });
      finishReauth(true);
    } catch (problem) {
      setError(serverMessage(problem) ?? 'Could not check your password. Please try again.');
    } finally {
      setPending(false);
    }
  };
  return (
    <DialogFrame
      open={open}
      onOpenChange={(next) => !next && finishReauth(false)}
      data-testid="reauth-dialog"
      titleClassName="flex items-center gap-2"
      title={
        <>
          <LockIcon className="size-5" aria-hidden /> Confirm it's you
        </>
      }
      description={`For your safety, enter your password again to ${reason ?? 'change where your payouts go'}.`}
    >
      <form className="grid gap-4" onSubmit={submit}>
        <CurrentPasswordField
          id="reauth-password"
          value={password}
          onValue={setPassword}
          error={error}
        />
        <Button type="submit" disabled={pending || password === ''}>
          {pending ? 'Checking...' : 'Confirm'}
        </Button>
      </form>
    </DialogFrame>
  );
}

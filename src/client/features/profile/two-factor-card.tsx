import { useMutation, useQuery } from '@tanstack/react-query';
import { KeyRoundIcon, ShieldCheckIcon } from 'lucide-react';
import * as React from 'react';
import { QrCode } from '@/components/qr-code';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { TextField } from '@/components/ui/text-field';
import { apiRequest, serverMessage } from '@/lib/api';
import { withStepUp } from '@/lib/reauth';
import { toast } from '@/lib/toast';
import { refreshTwoFactor, twoFactorQuery } from './queries';

/**
 * Two-factor for customers (decision 072): an authenticator app's code after the password at
 * sign-in. Turning it on or off asks for the password again when it was not given lately.
 */
export function TwoFactorCard() {
  const status = useQuery(twoFactorQuery());
  const [setup, setSetup] = React.useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [code, setCode] = React.useState('');
  const [error, setError] = React.useState<string>();
  const [recoveryCodes, setRecoveryCodes] = React.useState<string[] | null>(null);
  const start = useMutation({
    mutationFn: () =>
      withStepUp(async () => (await apiRequest('POST', '/api/two-factor/setup')).json()),
    onSuccess: (answer) => {
      setSetup(answer as { secret: string; otpauthUrl: string });
      setCode('');
      setError(undefined);
    },
    onError: (e) =>
      toast({ title: 'Could not start', description: serverMessage(e), variant: 'destructive' }),
  });
  const enable = useMutation({
    mutationFn: () =>
      withStepUp(async () => (await apiRequest('POST', '/api/two-factor/enable', { code })).json()),
    onSuccess: async (answer) => {
      setRecoveryCodes((answer as { recoveryCodes: string[] }).recoveryCodes);
      setSetup(null);
      await refreshTwoFactor();
      toast({ title: 'Two-factor is on' });
    },
    onError: (e) => setError(serverMessage(e) ?? 'That code is not right'),
  });
  const disable = useMutation({
    mutationFn: () =>
      withStepUp(async () => (await apiRequest('POST', '/api/two-factor/disable')).json()),
    onSuccess: async () => {
      setRecoveryCodes(null);
      await refreshTwoFactor();
      toast({ title: 'Two-factor is off' });
    },
    onError: (e) =>
      toast({
        title: 'Could not turn it off',
        description: serverMessage(e),
        variant: 'destructive',
      }),
  });

  return (
    <Card data-testid="two-factor-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRoundIcon className="size-5" aria-hidden /> Two-factor sign-in
        </CardTitle>
        <CardDescription>
          After your password, a 6-digit code from an authenticator app (Google Authenticator,
          1Password, Authy…). Someone who learns your password still cannot sign in.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status.isLoading ? (
          <Skeleton className="h-10" />
        ) : recoveryCodes ? (
          <div className="grid gap-2" data-testid="customer-recovery-codes">
            <p className="text-sm font-medium">
              Keep these recovery codes somewhere safe: each signs you in once if you lose your
              phone. They are shown only now.
            </p>
            <ul className="grid grid-cols-2 gap-1 rounded-lg border bg-muted/40 p-3 font-mono text-sm">
              {recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <Button
              variant="outline"
              className="justify-self-start"
              onClick={() => setRecoveryCodes(null)}
            >
              I have saved them
            </Button>
          </div>
        ) : status.data?.enabled ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="flex items-center gap-2 text-sm">
              <ShieldCheckIcon className="size-4 text-green-600 dark:text-green-400" aria-hidden />
              Two-factor is on.
            </p>
            <Button variant="outline" onClick={() => disable.mutate()} disabled={disable.isPending}>
              Turn off
            </Button>
          </div>
        ) : setup ? (
          <form
            className="grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start"
            onSubmit={(e) => {
              e.preventDefault();
              enable.mutate();
            }}
          >
            <QrCode value={setup.otpauthUrl} />
            <div className="grid gap-3">
              <p className="text-sm">
                Scan the code with your authenticator app, or type this key:{' '}
                <code className="break-all font-mono" data-testid="customer-totp-secret">
                  {setup.secret}
                </code>
              </p>
              <TextField
                id="customer-totp-code"
                label="6-digit code"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                error={error}
              />
              <Button
                type="submit"
                className="justify-self-start"
                disabled={enable.isPending || !code.trim()}
              >
                Turn on
              </Button>
            </div>
          </form>
        ) : (
          <Button
            className="justify-self-start"
            onClick={() => start.mutate()}
            disabled={start.isPending}
            data-testid="start-two-factor"
          >
            Set up two-factor
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

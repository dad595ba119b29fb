import type { CurrentUser, TwoFactorChallenge } from '@shared/auth-schemas';
import { CheckIcon, CopyIcon, DownloadIcon, KeyRoundIcon } from 'lucide-react';
import * as React from 'react';
import { QrCode } from '@/components/qr-code';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { refreshCurrentUser } from '@/lib/auth';
import { toast } from '@/lib/toast';

/** The secret in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * The second step of a sign-in with staff rights: set the authenticator up the first time (QR code
 * and its key as text), then a 6-digit code (or a recovery code). The first sign-in ends with the
 * recovery codes, shown once.
 */
export function TwoFactorStep({
  challenge,
  onSuccess,
  onRestart,
}: {
  challenge: TwoFactorChallenge;
  onSuccess: () => void;
  /** The pending sign-in expired: back to the password. */
  onRestart: () => void;
}) {
  const [code, setCode] = React.useState('');
  const [error, setError] = React.useState<string | undefined>();
  const [pending, setPending] = React.useState(false);
  const [recoveryCodes, setRecoveryCodes] = React.useState<string[] | null>(null);
  const enrolling = !!challenge.otpauthUrl;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError('Enter the 6-digit code from your authenticator app');
      return;
    }
    setPending(true);
    setError(undefined);
    try {
      const answer = (await (
        await apiRequest('POST', '/api/admin/signin/verify', { code })
      ).json()) as CurrentUser & { recoveryCodes?: string[] };
      if (answer.recoveryCodes) {
        setRecoveryCodes(answer.recoveryCodes);
        return;
      }
      await refreshCurrentUser();
      onSuccess();
    } catch (failure) {
      const message = serverMessage(failure);
      if (failure instanceof ApiError && failure.status === 401) {
        toast({ title: 'Sign in again', description: message, variant: 'destructive' });
        onRestart();
        return;
      }
      setError(message ?? 'That code is not right');
    } finally {
      setPending(false);
    }
  };

  if (recoveryCodes) {
    return (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={async () => {
          await refreshCurrentUser();
          onSuccess();
        }}
      />
    );
  }

  return (
    <form className="grid gap-4" noValidate onSubmit={submit} data-testid="two-factor-step">
      {enrolling ? (
        <div className="grid gap-3 text-sm">
          <p className="font-medium">Set up two-factor sign-in</p>
          <p className="text-muted-foreground">
            Staff accounts need a code from an authenticator app (Google Authenticator, 1Password,
            Microsoft Authenticator…) as well as the password. Scan this code with the app:
          </p>
          <div className="flex justify-center">
            <QrCode value={challenge.otpauthUrl!} />
          </div>
          <p className="text-muted-foreground">Or enter this key in the app by hand:</p>
          <code
            className="rounded-md border bg-muted/50 p-2 text-center font-mono text-sm tracking-wider break-all"
            data-testid="totp-secret"
          >
            {grouped(challenge.secret ?? '')}
          </code>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">
          Enter the 6-digit code your authenticator app shows for Cardbridge, or one of your
          recovery codes.
        </p>
      )}
      <TextField
        id="two-factor-code"
        label={enrolling ? 'Code from the app' : 'Authentication code'}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={error}
        inputMode={enrolling ? 'numeric' : 'text'}
        autoComplete="one-time-code"
        autoFocus
        placeholder="123456"
        maxLength={40}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Checking...' : enrolling ? 'Turn on and sign in' : 'Verify'}
      </Button>
      <Button type="button" variant="ghost" className="w-full" onClick={onRestart}>
        Back
      </Button>
    </form>
  );
}

/** The recovery codes, once: copy or download them, then go on. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = React.useState(false);
  const text = `Cardbridge recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <div className="grid gap-4" data-testid="recovery-codes">
      <div className="flex items-start gap-3 text-sm">
        <KeyRoundIcon className="mt-0.5 size-5 shrink-0 text-primary" />
        <p>
          <span className="font-medium">Save these recovery codes.</span>{' '}
          <span className="text-muted-foreground">
            If you lose your phone, each one signs you in once instead of a code. They are shown
            only now.
          </span>
        </p>
      </div>
      <ul className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code} className="text-center" data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="grid grid-cols-2 gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={async () => {
            await navigator.clipboard?.writeText(text).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? <CheckIcon /> : <CopyIcon />} {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            const link = document.createElement('a');
            link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
            link.download = 'cardbridge-recovery-codes.txt';
            link.click();
            URL.revokeObjectURL(link.href);
          }}
        >
          <DownloadIcon /> Download
        </Button>
      </div>
      <Button type="button" className="w-full" onClick={onDone} data-testid="recovery-codes-saved">
        I have saved them, continue
      </Button>
    </div>
  );
}

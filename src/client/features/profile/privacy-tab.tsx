import { brandName } from '@shared/brands';
import {
  ACCOUNT_HAS_OPEN_ITEMS,
  type DataExport,
  type DeletionResult,
  EXPORT_HOURS,
  type OpenItem,
} from '@shared/privacy';
import { useMutation, useQuery } from '@tanstack/react-query';
import { DownloadIcon, FileArchiveIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DialogFrame } from '@/components/ui/dialog';
import { CurrentPasswordField } from '@/components/ui/text-field';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { forgetSignedIn } from '@/lib/logout';
import { toast } from '@/lib/toast';
import { EXPORTS_PATH, exportsQuery, refreshExports } from './queries';

const EXPORT_STATUS_TEXT: Record<DataExport['status'], string> = {
  pending: 'Preparing…',
  building: 'Preparing…',
  ready: 'Ready',
  failed: 'Failed: ask again',
  expired: 'Expired',
};

const megabytes = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1048576).toFixed(1)} MB`;

/** The Privacy Policy's rights (issue 22): a copy of one's data, and deletion. */
export function PrivacyTab() {
  return (
    <div className="grid gap-6">
      <ExportCard />
      <DeleteAccountCard />
    </div>
  );
}

function ExportCard() {
  const exports = useQuery({
    ...exportsQuery(),
    // While one is being prepared, look again every few seconds (the live event also says so).
    refetchInterval: (query) =>
      query.state.data?.some((e) => e.status === 'pending' || e.status === 'building')
        ? 3000
        : false,
  });
  const ask = useMutation({
    mutationFn: async () => (await apiRequest('POST', '/api/account/export')).json(),
    onSuccess: () => {
      void refreshExports();
      toast({
        title: 'Export requested',
        description: 'We are preparing your data. We will email you when it is ready.',
      });
    },
    onError: (error) =>
      toast({
        title: 'Could not start an export',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      }),
  });
  const list = exports.data ?? [];
  return (
    <Card data-testid="export-card">
      <CardHeader>
        <CardTitle>Download your data</CardTitle>
        <CardDescription>
          One ZIP file with your account, payment methods, every card with its history, chat,
          tickets, notifications, sessions, notes our staff keep about you, API keys and webhook
          endpoints (never a key or a secret), and every photo you uploaded. The download works for{' '}
          {EXPORT_HOURS} hours, and you can ask for one export every {EXPORT_HOURS} hours.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Button
          className="w-fit"
          onClick={() => ask.mutate()}
          disabled={ask.isPending}
          data-testid="request-export"
        >
          <FileArchiveIcon /> {ask.isPending ? 'Asking...' : 'Export my data'}
        </Button>
        {list.length > 0 && (
          <ul className="grid gap-2" aria-label="Your exports">
            {list.map((e) => (
              <li
                key={e.id}
                data-testid="export-row"
                data-status={e.status}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm"
              >
                <span>
                  <span className="font-medium">{formatDateTime(e.createdAt)}</span>
                  <span className="text-muted-foreground">
                    {' · '}
                    {EXPORT_STATUS_TEXT[e.status]}
                    {e.status === 'ready' && e.size !== null ? ` · ${megabytes(e.size)}` : ''}
                    {e.status === 'ready' && e.expiresAt
                      ? ` · until ${formatDateTime(e.expiresAt)}`
                      : ''}
                  </span>
                </span>
                {e.status === 'ready' && (
                  <Button asChild size="sm" variant="outline">
                    <a
                      href={`${EXPORTS_PATH}/${e.id}/download`}
                      download
                      data-testid="download-export"
                    >
                      <DownloadIcon /> Download
                    </a>
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function DeleteAccountCard() {
  const [open, setOpen] = React.useState(false);
  const [scheduled, setScheduled] = React.useState(false);
  return (
    <Card data-testid="delete-account-card" className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete your account</CardTitle>
        <CardDescription>
          Your name, email address, payment details, chat, tickets, notifications and identity
          documents are erased, and you are signed out everywhere. The records of cards we bought
          and what we paid stay, without your name, as financial records must. A card still under
          review or not yet paid has to settle first.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {scheduled && (
          <p role="status" className="rounded-md border bg-muted/40 p-3 text-sm">
            Your account will be deleted as soon as your open cards settle. We will email you when
            it is done.
          </p>
        )}
        <Button
          variant="destructive"
          className="w-fit"
          onClick={() => setOpen(true)}
          data-testid="delete-account"
        >
          <Trash2Icon /> Delete my account
        </Button>
        <DeleteAccountDialog
          open={open}
          onOpenChange={setOpen}
          onScheduled={() => {
            setOpen(false);
            setScheduled(true);
          }}
        />
      </CardContent>
    </Card>
  );
}

function DeleteAccountDialog({
  open,
  onOpenChange,
  onScheduled,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onScheduled: () => void;
}) {
  const [, navigate] = useLocation();
  const [password, setPassword] = React.useState('');
  const [error, setError] = React.useState<string>();
  const [items, setItems] = React.useState<OpenItem[] | null>(null);
  const [pending, setPending] = React.useState(false);
  React.useEffect(() => {
    if (open) {
      setPassword('');
      setError(undefined);
      setItems(null);
    }
  }, [open]);
  const remove = async (whenSettled: boolean) => {
    setPending(true);
    setError(undefined);
    try {
      const result = (await (
        await apiRequest('DELETE', '/api/account', { password, whenSettled })
      ).json()) as DeletionResult;
      if (!result.deleted) {
        onScheduled();
        return;
      }
      forgetSignedIn();
      navigate('/');
      toast({ title: 'Your account was deleted', description: 'We emailed you a confirmation.' });
    } catch (problem) {
      if (problem instanceof ApiError && problem.code === ACCOUNT_HAS_OPEN_ITEMS)
        setItems(problem.body?.items as OpenItem[]);
      else setError(serverMessage(problem) ?? 'Could not delete the account. Please try again.');
    } finally {
      setPending(false);
    }
  };
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      data-testid="delete-account-dialog"
      title="Delete your account?"
      description="This cannot be undone. Enter your password to confirm."
    >
      <form
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void remove(false);
        }}
      >
        <CurrentPasswordField
          id="delete-password"
          value={password}
          onValue={setPassword}
          error={error}
        />
        {items && (
          <div
            role="alert"
            className="grid gap-2 rounded-md border p-3 text-sm"
            data-testid="open-items"
          >
            <p className="font-medium">
              Not yet: {items.length === 1 ? 'one card is' : `${items.length} cards are`} still
              open.
            </p>
            <ul className="grid gap-1">
              {items.map((item) => (
                <li key={item.transactionId}>
                  {brandName(item.cardType)} ${item.cardValue}: {item.label}
                </li>
              ))}
            </ul>
            <Button
              type="button"
              variant="outline"
              className="w-fit"
              disabled={pending}
              onClick={() => void remove(true)}
              data-testid="delete-when-settled"
            >
              Delete it once they settle
            </Button>
          </div>
        )}
        <Button type="submit" variant="destructive" disabled={pending || password === ''}>
          {pending ? 'Deleting...' : 'Delete my account'}
        </Button>
      </form>
    </DialogFrame>
  );
}

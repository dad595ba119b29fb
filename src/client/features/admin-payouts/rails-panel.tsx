import { type PayoutRail, RAIL_ENV, railLabel } from '@shared/disbursements';
import { fromCents, toCents } from '@shared/money';
import { paymentMethodLabel } from '@shared/payment-methods';
import { useMutation, useQuery } from '@tanstack/react-query';
import { AlertTriangleIcon, CheckCircle2Icon, CircleSlashIcon, WalletIcon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { StaffSection } from '@/features/admin-shared/staff-section';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { payoutRailsQuery, refreshPayouts } from './queries';

/** What each kind of rail does, in a line. */
const KIND_TEXT: Record<PayoutRail['kind'], string> = {
  manual: 'Staff pay from the list below (or the CSV) and mark the cards sent.',
  ach_file: 'Finance builds a NACHA file of queued bank payouts and uploads it to the bank.',
  evm_token: 'A token transfer from the hot wallet, confirmed on chain.',
};

/** A token amount with up to 18 decimals, as cents (cut, not rounded): for comparing with money. */
const tokenCents = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
};

/** A balance as it reads: at most 6 decimals, without trailing zeros. */
const balanceText = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  const cut = fraction.slice(0, 6).replace(/0+$/, '');
  return `${Number(whole).toLocaleString('en-US')}${cut ? `.${cut}` : ''}`;
};

/**
 * The payout rails (issue 40): each with what it pays, whether it is configured (and the env it
 * needs when not), its automatic payout switch (owners and finance, confirmed first) and, for the
 * EVM rail, the hot wallet's token and gas.
 */
export function RailsPanel() {
  const { data } = useQuery(payoutRailsQuery());
  const [asking, setAsking] = React.useState<PayoutRail | null>(null);
  const [refusal, setRefusal] = React.useState<{ rail: string; message: string } | null>(null);
  const set = useMutation({
    mutationFn: async ({ rail, on }: { rail: string; on: boolean }) =>
      (await (
        await apiRequest('PUT', `/api/admin/payout-rails/${rail}`, { autoPayout: on })
      ).json()) as PayoutRail,
    onSuccess: async (rail) => {
      setAsking(null);
      setRefusal(null);
      await refreshPayouts();
      toast({
        title: 'Success',
        description: `Automatic payout is ${rail.autoPayout ? 'on' : 'off'} for ${railLabel(rail.rail)}.`,
      });
    },
    onError: (error, { rail }) => {
      setAsking(null);
      const message =
        error instanceof ApiError && error.code === 'rail_not_configured'
          ? `${railLabel(rail)} is not configured: set its environment variables on the server and restart it, then turn automatic payout on.`
          : (serverMessage(error) ?? 'Could not change automatic payout');
      setRefusal({ rail, message });
      void refreshPayouts();
    },
  });
  const turningOn = asking ? !asking.autoPayout : false;
  return (
    <StaffSection
      id="rails"
      title="Payout rails"
      description="How each payment method is paid. Manual is the default; an automatic rail pays approved cards by itself once its automatic payout is on."
      className="grid grid-cols-[minmax(0,1fr)] gap-3"
      testId="payout-rails"
    >
      {data ? (
        <ul className="grid grid-cols-[minmax(0,1fr)] gap-3 lg:grid-cols-3">
          {data.map((rail) => (
            <RailCard
              key={rail.rail}
              rail={rail}
              refusal={refusal?.rail === rail.rail ? refusal.message : null}
              pending={set.isPending && set.variables?.rail === rail.rail}
              onToggle={() => setAsking(rail)}
            />
          ))}
        </ul>
      ) : (
        <Skeleton className="h-40" />
      )}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={`Turn ${turningOn ? 'on' : 'off'} automatic payout for ${asking ? railLabel(asking.rail) : ''}?`}
        description={
          turningOn
            ? `From now on every approved card paid by ${asking?.paymentTypes.map(paymentMethodLabel).join(' or ')} is queued at once (or when its payout hold ends) and paid ${
                asking?.kind === 'evm_token'
                  ? 'from the hot wallet without anyone checking it first'
                  : 'in the next ACH batch finance builds'
              }. It is recorded in the audit log.`
            : 'New approvals are paid by hand again, from the list below. Payouts already queued on this rail still go out; cancel them in the payouts list if they should not.'
        }
        confirmLabel={turningOn ? 'Turn on' : 'Turn off'}
        pendingLabel="Saving..."
        pending={set.isPending}
        onConfirm={() => asking && set.mutate({ rail: asking.rail, on: !asking.autoPayout })}
      />
    </StaffSection>
  );
}

function RailCard({
  rail,
  refusal,
  pending,
  onToggle,
}: {
  rail: PayoutRail;
  refusal: string | null;
  pending: boolean;
  onToggle: () => void;
}) {
  const switchId = `auto-payout-${rail.rail}`;
  const env = RAIL_ENV[rail.kind];
  return (
    <li
      className="grid content-start gap-3 rounded-lg border p-4 text-sm"
      data-testid="rail-card"
      data-rail={rail.rail}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold">{railLabel(rail.rail)}</h3>
          <p className="text-muted-foreground">
            Pays {rail.paymentTypes.map(paymentMethodLabel).join(', ')}
          </p>
        </div>
        {rail.configured ? (
          <span className="flex items-center gap-1 font-medium text-primary">
            <CheckCircle2Icon className="size-4" aria-hidden /> Configured
          </span>
        ) : (
          <span className="flex items-center gap-1 font-medium text-muted-foreground">
            <CircleSlashIcon className="size-4" aria-hidden /> Not configured
          </span>
        )}
      </div>
      <p>{KIND_TEXT[rail.kind]}</p>
      {!rail.configured && env.length > 0 && (
        <div className="rounded-md bg-muted/60 px-3 py-2" data-testid="rail-env">
          <p>Set these on the server and restart it to use this rail:</p>
          <p className="mt-1 font-mono text-xs [overflow-wrap:anywhere]">{env.join(', ')}</p>
        </div>
      )}
      {rail.kind === 'evm_token' && rail.configured && <WalletBalances rail={rail} />}
      {rail.kind === 'manual' ? (
        <p className="text-muted-foreground">Always available: it needs no switch.</p>
      ) : (
        <div className="flex items-center justify-between gap-3 border-t pt-3">
          <label htmlFor={switchId} className="font-medium">
            Automatic payout
            <span className="block text-xs font-normal text-muted-foreground">
              {rail.autoPayout ? 'On: approvals are paid by the rail' : 'Off: paid by hand'}
            </span>
          </label>
          <Switch
            id={switchId}
            checked={rail.autoPayout}
            disabled={!rail.configured || pending}
            onCheckedChange={onToggle}
            data-testid="auto-payout-switch"
          />
        </div>
      )}
      {refusal && (
        <p role="alert" className="font-medium text-destructive" data-testid="rail-refusal">
          {refusal}
        </p>
      )}
    </li>
  );
}

/** The hot wallet's token and gas, and a warning when the queued payouts need more token. */
function WalletBalances({ rail }: { rail: PayoutRail }) {
  if (!rail.balances) {
    return (
      <p className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100">
        <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
        The chain's node does not answer: balances are unknown and payouts wait until it does.
      </p>
    );
  }
  const need = toCents(rail.queued);
  const short = need > 0 && tokenCents(rail.balances.token) < need;
  return (
    <div className="grid gap-2">
      <dl className="grid grid-cols-2 gap-2" data-testid="wallet-balances">
        <WalletFigure
          label={
            <>
              <WalletIcon className="size-3.5" aria-hidden /> Hot wallet token
            </>
          }
          labelClassName="flex items-center gap-1 text-xs text-muted-foreground"
          testId="wallet-token"
        >
          {balanceText(rail.balances.token)} USDT
        </WalletFigure>
        <WalletFigure
          label="Gas"
          labelClassName="text-xs text-muted-foreground"
          testId="wallet-gas"
        >
          {balanceText(rail.balances.gas)} BNB
        </WalletFigure>
      </dl>
      {short && (
        <p
          className={cn(
            'flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100',
          )}
          data-testid="wallet-short"
        >
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          The queued payouts need {fromCents(need)} USDT: fund the hot wallet. They wait until it
          holds enough, and go out then.
        </p>
      )}
    </div>
  );
}

/** One of the hot wallet's balances. */
function WalletFigure({
  label,
  labelClassName,
  testId,
  children,
}: {
  label: React.ReactNode;
  labelClassName: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div className="rounded-md bg-muted/60 px-3 py-2">
      <dt className={labelClassName}>{label}</dt>
      <dd className="font-semibold tabular-nums [overflow-wrap:anywhere]" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

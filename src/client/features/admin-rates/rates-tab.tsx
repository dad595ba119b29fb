import { ratePercent } from '@shared/brands';
import { minimumAmount } from '@shared/card-rules';
import {
  type AdminBrandRate,
  minimumProblem,
  OTHER_BRAND,
  type RateChange,
  type RateTier,
  rateProblem,
  tierLabel,
} from '@shared/rates';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ArchiveRestoreIcon, ArchiveXIcon, PencilIcon, PlusIcon, TagsIcon } from 'lucide-react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { FormActions } from '@/components/form-actions';
import { FormTextField } from '@/components/form-text-field';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableColumns, TableRow } from '@/components/ui/table';
import { ApiError, apiRequest } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { errorToast } from '@/lib/error-toast';
import { problemsResolver } from '@/lib/form';
import { useStaffCan } from '@/lib/staff-role';
import { toast } from '@/lib/toast';
import { InstantPolicyPanel } from './instant-policy';
import { adminRatesQuery, rateHistoryQuery, refreshRates } from './queries';
import { type TierDraft, TierEditor, toTierDrafts, toTierInput } from './tier-editor';

type Terms = { brand: string; rate: string; minimum: string };

/** Staff-managed rates: what each brand pays, its minimum, new brands and retired ones. */
export function RatesTab() {
  const { data: rates, isLoading } = useQuery(adminRatesQuery());
  const [editing, setEditing] = React.useState<AdminBrandRate | 'new' | null>(null);
  const [retiring, setRetiring] = React.useState<AdminBrandRate | null>(null);
  const change = useRateWrite(() => setRetiring(null));
  const manage = useStaffCan()('rates.manage');

  if (isLoading) return <Skeleton className="h-48" />;
  return (
    <div className="grid gap-6">
      <InstantPolicyPanel />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-prose text-sm text-muted-foreground">
          New quotes use these at once; a card keeps the rate it was submitted at.
        </p>
        {manage && (
          <Button onClick={() => setEditing('new')} data-testid="add-brand">
            <PlusIcon /> Add brand
          </Button>
        )}
      </div>
      <Table data-testid="rates-table">
        <TableColumns
          columns={['Brand', 'Rate', 'Minimum', 'Status', { label: 'Actions', srOnly: true }]}
        />
        <TableBody>
          {(rates ?? []).map((r) => (
            <TableRow key={r.id} data-testid="rate-row" className={r.retired ? 'opacity-60' : ''}>
              <TableCell className="font-medium">
                {r.brand}
                {r.tiers.map((tier) => (
                  <span
                    key={`${tier.format}-${tier.minValue}`}
                    className="block text-xs font-normal text-muted-foreground"
                    data-testid="rate-tier"
                  >
                    {tierLabel(tier)}
                  </span>
                ))}
              </TableCell>
              <TableCell className="tabular-nums" data-testid="rate-percent">
                {ratePercent(r.rate)}%<span className="sr-only"> ({r.rate})</span>
              </TableCell>
              <TableCell className="tabular-nums">{minimumAmount(r.minimum)}</TableCell>
              <TableCell>
                {r.retired ? (
                  <Badge variant="outline">Retired</Badge>
                ) : (
                  <Badge variant="secondary">Buying</Badge>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap text-right">
                {manage && (
                  <>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setEditing(r)}
                      aria-label={`Edit ${r.brand}`}
                    >
                      <PencilIcon /> Edit
                    </Button>
                    {r.brand !== OTHER_BRAND &&
                      (r.retired ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={change.isPending}
                          onClick={() =>
                            change.mutate({
                              brand: r.brand,
                              body: { retired: false },
                              done: 'restored',
                            })
                          }
                          aria-label={`Restore ${r.brand}`}
                        >
                          <ArchiveRestoreIcon /> Restore
                        </Button>
                      ) : (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setRetiring(r)}
                          aria-label={`Retire ${r.brand}`}
                        >
                          <ArchiveXIcon /> Retire
                        </Button>
                      ))}
                  </>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <RateHistory />
      <DialogFrame
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        data-testid="rate-dialog"
        className={editing === 'new' ? undefined : 'max-w-2xl'}
        title={editing === 'new' ? 'Add a brand' : `Edit ${editing?.brand}`}
        description="The rate is the share of face value paid (0.91 pays $91 for a $100 card)."
      >
        {editing && (
          <RateForm
            key={editing === 'new' ? 'new' : editing.id}
            terms={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
      </DialogFrame>
      <ConfirmDialog
        open={retiring !== null}
        onOpenChange={(open) => !open && setRetiring(null)}
        title={`Stop buying ${retiring?.brand ?? ''} cards?`}
        description="It leaves the upload form and the landing page at once. Cards already submitted keep their rate; you can restore the brand later."
        confirmLabel="Retire"
        pendingLabel="Retiring..."
        pending={change.isPending}
        onConfirm={() =>
          retiring &&
          change.mutate({ brand: retiring.brand, body: { retired: true }, done: 'retired' })
        }
      />
    </div>
  );
}

/**
 * A change to one brand (PUT) or a new one (POST), with the spec's toasts; the server's field
 * messages also go to `onFieldErrors` when given (the edit form shows them in place).
 */
function useRateWrite(
  onDone: () => void,
  onFieldErrors?: (errors: Record<string, string>) => void,
) {
  const failed = errorToast('Failed to save the rate');
  return useMutation({
    mutationFn: async ({
      brand,
      body,
    }: {
      brand: string | null;
      body: Partial<Terms> & { retired?: boolean; tiers?: RateTier[] };
      done: string;
    }) =>
      brand === null
        ? apiRequest('POST', '/api/admin/rates', body)
        : apiRequest('PUT', `/api/admin/rates/${encodeURIComponent(brand)}`, body),
    onSuccess: async (_res, { brand, body, done }) => {
      await refreshRates();
      toast({ title: 'Success', description: `${brand ?? body.brand} ${done}` });
      onDone();
    },
    onError: (error) => {
      if (onFieldErrors && error instanceof ApiError) onFieldErrors(error.errors);
      failed(error);
    },
  });
}

const formProblems = (values: Terms, isNew: boolean) => ({
  brand: isNew && values.brand.trim() === '' ? 'Brand name is required' : undefined,
  rate: rateProblem(values.rate),
  minimum: minimumProblem(values.minimum),
});

function RateForm({ terms, onDone }: { terms: AdminBrandRate | null; onDone: () => void }) {
  const isNew = terms === null;
  const form = useForm<Terms>({
    resolver: problemsResolver((values: Terms) => formProblems(values, isNew)),
    defaultValues: {
      brand: terms?.brand ?? '',
      rate: terms?.rate ?? '',
      minimum: terms?.minimum ?? '50.00',
    },
  });
  const [tiers, setTiers] = React.useState<TierDraft[]>(() => toTierDrafts(terms?.tiers ?? []));
  const [serverErrors, setServerErrors] = React.useState<Record<string, string>>({});
  const save = useRateWrite(onDone, (errors) => {
    setServerErrors(errors);
    for (const field of ['rate', 'minimum'] as const) {
      if (errors[field]) form.setError(field, { type: 'server', message: errors[field] });
    }
  });
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={form.handleSubmit((values) => {
        setServerErrors({});
        save.mutate(
          isNew
            ? { brand: null, body: values, done: 'added' }
            : {
                brand: terms.brand,
                body: { rate: values.rate, minimum: values.minimum, tiers: toTierInput(tiers) },
                done: 'updated',
              },
        );
      })}
    >
      {isNew && <FormTextField form={form} name="brand" id="rate-brand" label="Brand" />}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormTextField
          form={form}
          name="rate"
          id="rate-rate"
          label="Rate (0.01–1.00)"
          inputMode="decimal"
        />
        <FormTextField
          form={form}
          name="minimum"
          id="rate-minimum"
          label="Minimum card value (USD)"
          inputMode="decimal"
        />
      </div>
      {!isNew && (
        <TierEditor
          tiers={tiers}
          onChange={(next) => {
            setTiers(next);
            // A message names a tier by its place, which an edit may change: they go together.
            setServerErrors({});
          }}
          errors={serverErrors}
        />
      )}
      <FormActions
        label="Save Changes"
        pending={save.isPending}
        onCancel={onDone}
        testId="save-rate"
      />
    </form>
  );
}

/** A set of tiers in the history as the quote names them: "none" for the brand rate alone. */
const describeTiers = (value: unknown) =>
  Array.isArray(value) && value.length > 0
    ? (value as RateTier[]).map(tierLabel).join('; ')
    : 'none';

const describeChange = (change: RateChange) =>
  Object.entries(change.changes)
    .filter(([field]) => field !== 'brand')
    .map(([field, { from, to }]) =>
      field === 'tiers'
        ? `tiers ${describeTiers(from)} → ${describeTiers(to)}`
        : `${field} ${String(from ?? '—')} → ${String(to)}`,
    )
    .join(', ');

/** Who changed which terms, newest first. */
function RateHistory() {
  const { data: history } = useQuery(rateHistoryQuery());
  return (
    <section className="grid gap-3" aria-labelledby="rate-history-heading">
      <h2 id="rate-history-heading" className="flex items-center gap-2 font-semibold">
        <TagsIcon className="size-4" /> Changes
      </h2>
      {!history?.length ? (
        <p className="text-sm text-muted-foreground">No changes yet: the rates are the seed’s.</p>
      ) : (
        <ul className="grid gap-2 text-sm" data-testid="rate-history">
          {history.map((change) => (
            <li key={change.id} className="rounded-lg border p-3">
              <p className="font-medium wrap-anywhere">
                {change.brand} · {change.action}
              </p>
              <p className="text-muted-foreground wrap-anywhere">{describeChange(change)}</p>
              <p className="text-xs text-muted-foreground wrap-anywhere">
                {formatDateTime(change.createdAt)} by {change.actorEmail}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

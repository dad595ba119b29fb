import { brandName } from '@shared/brands';
import { MAX_RATE_ALERTS, type RateAlert } from '@shared/rate-schemas';
import { OTHER_BRAND, rateAsPercent } from '@shared/rates';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { BellRingIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Button, SubmitButton } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { TextField } from '@/components/ui/text-field';
import { ApiError, apiRequest } from '@/lib/api';
import { errorToast } from '@/lib/error-toast';
import { ratesQuery, refresh } from '@/lib/queries';
import { toast } from '@/lib/toast';
import { PERCENT_MESSAGE, percentToRate } from './rate-percent';

const ALERTS_PATH = '/api/rate-alerts';
const rateAlertsQuery = () => queryOptions<RateAlert[]>({ queryKey: [ALERTS_PATH] });
const refreshAlerts = () => refresh(rateAlertsQuery().queryKey);

const FORMAT_WORDS: Record<string, string> = { physical: 'physical cards', egift: 'e-codes' };

/**
 * A seller's rate alerts (issue 41, decision 132): "tell me when Best Buy pays at least 90%",
 * for any format or one; up to 20, listed and deleted here. When a rate rises to one, the seller
 * gets a notice under the bell and an email.
 */
export function RateAlertsCard({ className }: { className?: string }) {
  const { data: alerts, isLoading } = useQuery(rateAlertsQuery());
  const remove = useMutation({
    mutationFn: (alert: RateAlert) => apiRequest('DELETE', `${ALERTS_PATH}/${alert.id}`),
    onSuccess: async (_res, alert) => {
      await refreshAlerts();
      toast({ title: 'Alert deleted', description: `No more news of ${brandName(alert.brand)}.` });
    },
    onError: errorToast('Could not delete the alert'),
  });
  const full = (alerts?.length ?? 0) >= MAX_RATE_ALERTS;
  return (
    <Card className={className} data-testid="rate-alerts">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BellRingIcon className="size-5 text-primary" aria-hidden /> Rate alerts
        </CardTitle>
        <CardDescription>
          We tell you, under the bell and by email, when a brand’s rate rises to the one you want.
          Up to {MAX_RATE_ALERTS} alerts.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {full ? (
          <p className="text-sm text-muted-foreground" data-testid="rate-alerts-full">
            You have {MAX_RATE_ALERTS} alerts, the most there can be. Delete one to add another.
          </p>
        ) : (
          <AlertForm />
        )}
        {isLoading ? (
          <Skeleton className="h-16" />
        ) : !alerts?.length ? (
          <p className="text-sm text-muted-foreground" data-testid="no-rate-alerts">
            No alerts yet.
          </p>
        ) : (
          <ul className="grid gap-2" aria-label="Your rate alerts">
            {alerts.map((alert) => (
              <li
                key={alert.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3 text-sm"
                data-testid="rate-alert"
              >
                <span className="min-w-0 wrap-anywhere">
                  <span className="font-medium">{brandName(alert.brand)}</span>
                  {alert.format ? ` ${FORMAT_WORDS[alert.format] ?? alert.format}` : ''} at least{' '}
                  <span className="font-medium tabular-nums">{rateAsPercent(alert.minRate)}</span>
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(alert)}
                  aria-label={`Delete the alert on ${brandName(alert.brand)} at ${rateAsPercent(alert.minRate)}`}
                >
                  <Trash2Icon /> Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function AlertForm() {
  const { data: rates } = useQuery(ratesQuery());
  const brands = (rates ?? []).filter((r) => r.brand !== OTHER_BRAND);
  const [brand, setBrand] = React.useState('');
  const [format, setFormat] = React.useState('');
  const [percent, setPercent] = React.useState('');
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: (body: { brand: string; format: string | null; minRate: string }) =>
      apiRequest('POST', ALERTS_PATH, body),
    onSuccess: async (_res, body) => {
      setErrors({});
      setPercent('');
      await refreshAlerts();
      toast({
        title: 'Alert set',
        description: `We will tell you when ${brandName(body.brand)} pays at least ${rateAsPercent(body.minRate)}.`,
      });
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.errors).length > 0) {
        const { minRate, ...rest } = error.errors;
        setErrors({ ...rest, ...(minRate && { percent: minRate }) });
      } else errorToast('Could not set the alert')(error);
    },
  });
  const current = brands.find((r) => r.brand === brand);
  return (
    <form
      className="grid gap-4 sm:grid-cols-[2fr_1.5fr_1fr_auto] sm:items-start"
      noValidate
      aria-label="New rate alert"
      onSubmit={(e) => {
        e.preventDefault();
        const minRate = percentToRate(percent);
        const problems = {
          ...(brand === '' && { brand: 'Choose a brand' }),
          ...(!minRate && { percent: PERCENT_MESSAGE }),
        };
        setErrors(problems);
        if (Object.keys(problems).length > 0 || !minRate) return;
        create.mutate({ brand, format: format === '' ? null : format, minRate });
      }}
    >
      <Field
        id="alert-brand"
        label="Brand"
        error={errors.brand}
        hint={current ? `Pays ${rateAsPercent(current.rate)} today` : undefined}
      >
        <NativeSelect
          id="alert-brand"
          value={brand}
          aria-invalid={!!errors.brand}
          aria-describedby={errors.brand ? 'alert-brand-error' : undefined}
          onChange={(e) => {
            setBrand(e.target.value);
            setErrors(({ brand: _, ...rest }) => rest);
          }}
        >
          <option value="">Choose a brand</option>
          {brands.map((r) => (
            <option key={r.brand} value={r.brand}>
              {brandName(r.brand)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field id="alert-format" label="Format" error={errors.format}>
        <NativeSelect id="alert-format" value={format} onChange={(e) => setFormat(e.target.value)}>
          <option value="">Any format</option>
          <option value="physical">Physical</option>
          <option value="egift">E-code</option>
        </NativeSelect>
      </Field>
      <TextField
        id="alert-percent"
        label="At least (%)"
        inputMode="decimal"
        value={percent}
        error={errors.percent}
        onChange={(e) => {
          setPercent(e.target.value);
          setErrors(({ percent: _, ...rest }) => rest);
        }}
      />
      <SubmitButton className="sm:mt-7" pending={create.isPending} data-testid="add-rate-alert">
        Set alert
      </SubmitButton>
    </form>
  );
}

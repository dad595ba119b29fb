import type { InstantPolicy } from '@shared/instant-decisions';
import { formatMoney } from '@shared/money';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ZapIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { TextField } from '@/components/ui/text-field';
import { ApiError, apiRequest } from '@/lib/api';
import { useStaffCan } from '@/lib/staff-role';
import { toast } from '@/lib/toast';
import { instantPolicyQuery, refreshInstantPolicy } from './queries';

type Draft = Record<Exclude<keyof InstantPolicy, 'enabled'>, string> & { enabled: boolean };

const toDraft = (p: InstantPolicy): Draft => ({
  enabled: p.enabled,
  minLevel: String(p.minLevel),
  minCompletedCards: String(p.minCompletedCards),
  maxCardValue: p.maxCardValue,
  maxDailyTotal: p.maxDailyTotal,
  brands: p.brands.join(', '),
  sampleRate: String(Math.round(p.sampleRate * 10_000) / 100),
});

const toBody = (d: Draft) => ({
  enabled: d.enabled,
  minLevel: Number(d.minLevel),
  minCompletedCards: Number(d.minCompletedCards),
  maxCardValue: d.maxCardValue.trim(),
  maxDailyTotal: d.maxDailyTotal.trim(),
  brands: d.brands
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean),
  sampleRate: Number(d.sampleRate) / 100,
});

/**
 * Instant decisions (issue 41, decision 131): owners set the policy and the switch; reviewers
 * read it. A card meeting every rule is approved at once by actor `auto`.
 */
export function InstantPolicyPanel() {
  const can = useStaffCan();
  const { data } = useQuery({ ...instantPolicyQuery(), enabled: can('instant.read') });
  const manage = can('instant.manage');
  if (!data) return null;
  return (
    <Card data-testid="instant-policy">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ZapIcon className="size-5 text-primary" aria-hidden /> Instant decisions
        </CardTitle>
        <CardDescription>
          {data.enabled
            ? `On: trusted sellers’ cards up to ${formatMoney(data.maxCardValue)} of ${data.brands.length === 0 ? 'no brand yet' : data.brands.join(', ')} are approved at once; ${Math.round(data.sampleRate * 100)}% are sampled for a review after payment.`
            : 'Off: every card waits for a person.'}
        </CardDescription>
      </CardHeader>
      {manage && (
        <CardContent>
          <PolicyForm policy={data} />
        </CardContent>
      )}
    </Card>
  );
}

function PolicyForm({ policy }: { policy: InstantPolicy }) {
  const [draft, setDraft] = React.useState(() => toDraft(policy));
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: async (d: Draft) =>
      (await apiRequest('PUT', '/api/admin/instant-decisions', toBody(d))).json(),
    onSuccess: async () => {
      setErrors({});
      await refreshInstantPolicy();
      toast({ title: 'Success', description: 'Instant-decision policy saved' });
    },
    onError: (error) => {
      if (error instanceof ApiError && Object.keys(error.errors).length > 0) {
        setErrors(error.errors);
      } else toast({ title: 'Error', description: error.message, variant: 'destructive' });
    },
  });
  const field = (name: Exclude<keyof Draft, 'enabled'>, label: string, hint?: string) => (
    <TextField
      id={`instant-${name}`}
      label={label}
      hint={hint}
      value={draft[name]}
      error={errors[name]}
      onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
    />
  );
  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(draft);
      }}
    >
      <div className="flex items-center gap-2">
        <Checkbox
          id="instant-enabled"
          checked={draft.enabled}
          onCheckedChange={(v) => setDraft({ ...draft, enabled: v === true })}
        />
        <Label htmlFor="instant-enabled">Decide eligible cards at once</Label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {field('minLevel', 'Lowest verification level', '0, 1 or 2')}
        {field('minCompletedCards', 'Completed cards at least')}
        {field('maxCardValue', 'Largest card value ($)')}
        {field('maxDailyTotal', 'Daily total per seller ($)')}
        {field('sampleRate', 'Sampled for review (%)')}
        {field('brands', 'Brands', 'Comma-separated, as on the rates list')}
      </div>
      <div>
        <Button type="submit" disabled={save.isPending} data-testid="save-instant-policy">
          Save policy
        </Button>
      </div>
    </form>
  );
}

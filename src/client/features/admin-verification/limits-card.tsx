import { formatMoney } from '@shared/money';
import type { LevelLimits } from '@shared/verification';
import { useMutation, useQuery } from '@tanstack/react-query';
import { PencilIcon } from 'lucide-react';
import * as React from 'react';
import { Button, SubmitButton } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DialogFrame } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  type TableColumn,
  TableColumns,
  TableRow,
} from '@/components/ui/table';
import { TextField } from '@/components/ui/text-field';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { useStaffCan } from '@/lib/staff-role';
import { toast } from '@/lib/toast';
import { adminLimitsQuery, refreshLimits } from './queries';

const LEVEL_NAMES = ['0 · not verified', '1 · identity', '2 · address'];
type Values = Pick<LevelLimits, 'perCard' | 'perDay' | 'per30Days'>;

/** The selling limits by verification level (decision 072): staff edit them, audited. */
const LIMIT_COLUMNS: TableColumn[] = [
  'Level',
  { label: 'Per card', align: 'right' },
  { label: 'Per 24 hours', align: 'right' },
  { label: 'Per 30 days', align: 'right' },
  { label: 'Actions', srOnly: true },
];

export function LimitsCard() {
  const { data, isLoading } = useQuery(adminLimitsQuery());
  const [editing, setEditing] = React.useState<LevelLimits | null>(null);
  const manage = useStaffCan()('limits.manage');
  return (
    <Card data-testid="limits-card">
      <CardHeader>
        <CardTitle>Selling limits by level</CardTitle>
        <CardDescription>
          Card value a customer may submit, by verification level. Changes apply to the next
          submission and are recorded in the audit log.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading || !data ? (
          <Skeleton className="h-32" />
        ) : (
          <Table>
            <TableColumns columns={LIMIT_COLUMNS} />
            <TableBody>
              {data.map((l) => (
                <TableRow key={l.level} data-testid="limits-row">
                  <TableCell>{LEVEL_NAMES[l.level] ?? l.level}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatMoney(l.perCard)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatMoney(l.perDay)}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatMoney(l.per30Days)}
                  </TableCell>
                  <TableCell className="text-right">
                    {manage && (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => setEditing(l)}
                        aria-label={`Edit the limits of level ${l.level}`}
                      >
                        <PencilIcon /> Edit
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <DialogFrame
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        title={`Limits of level ${editing?.level ?? ''}`}
        description="Amounts in USD; per card ≤ per 24 hours ≤ per 30 days."
      >
        {editing && (
          <LimitsForm key={editing.level} limits={editing} onDone={() => setEditing(null)} />
        )}
      </DialogFrame>
    </Card>
  );
}

function LimitsForm({ limits, onDone }: { limits: LevelLimits; onDone: () => void }) {
  const [values, setValues] = React.useState<Values>({
    perCard: limits.perCard,
    perDay: limits.perDay,
    per30Days: limits.per30Days,
  });
  const [errors, setErrors] = React.useState<Partial<Record<keyof Values, string>>>({});
  const save = useMutation({
    mutationFn: async () =>
      (await apiRequest('PUT', `/api/admin/limits/${limits.level}`, values)).json(),
    onSuccess: async () => {
      await refreshLimits();
      toast({ title: `Limits of level ${limits.level} saved` });
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.body) setErrors(error.errors);
      toast({
        title: 'Could not save the limits',
        description: serverMessage(error),
        variant: 'destructive',
      });
    },
  });
  const field = (key: keyof Values, label: string) => (
    <TextField
      id={`limit-${key}`}
      label={label}
      inputMode="decimal"
      value={values[key]}
      error={errors[key]}
      onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
    />
  );
  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        setErrors({});
        save.mutate();
      }}
    >
      {field('perCard', 'Per card')}
      {field('perDay', 'Per 24 hours')}
      {field('per30Days', 'Per 30 days')}
      <SubmitButton pending={save.isPending}>Save limits</SubmitButton>
    </form>
  );
}

import { useMutation } from '@tanstack/react-query';
import { PlusIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { withStepUp } from '@/lib/reauth';
import { toast } from '@/lib/toast';
import { ShownOnce } from './shown-once';

type Shown = { testId: string; label: string; value: string; warning: string };

/**
 * A card of things the seller creates with a secret shown once (API keys, webhook endpoints):
 * a button that opens the form, the secret of the one just made, and the list.
 */
export function CreatedOnceCard<Made, Item extends { id: string }>({
  testId,
  title,
  description,
  toggleTestId,
  openLabel,
  shown,
  form,
  items,
  loaded,
  empty,
  listLabel,
  listClassName,
  row,
}: {
  testId: string;
  title: string;
  description: React.ReactNode;
  toggleTestId: string;
  openLabel: string;
  shown: (made: Made) => Shown;
  form: (onCreated: (made: Made) => void) => React.ReactNode;
  items: Item[];
  loaded: boolean;
  empty: string;
  listLabel: string;
  listClassName: string;
  row: (item: Item) => React.ReactNode;
}) {
  const [formOpen, setFormOpen] = React.useState(false);
  const [created, setCreated] = React.useState<Made | null>(null);
  return (
    <Card data-testid={testId}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div>
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <Button
          variant={formOpen ? 'outline' : 'default'}
          onClick={() => setFormOpen((open) => !open)}
          aria-expanded={formOpen}
          data-testid={toggleTestId}
        >
          {formOpen ? <XIcon /> : <PlusIcon />} {formOpen ? 'Close' : openLabel}
        </Button>
      </CardHeader>
      <CardContent className="grid gap-6">
        {created && <ShownOnce {...shown(created)} onDone={() => setCreated(null)} />}
        {formOpen && (
          <div className="rounded-lg border bg-muted/30 p-4">
            {form((made) => {
              setCreated(made);
              setFormOpen(false);
            })}
          </div>
        )}
        {loaded && items.length === 0 && <p className="text-sm text-muted-foreground">{empty}</p>}
        {items.length > 0 && (
          <ul className={listClassName} aria-label={listLabel}>
            {items.map(row)}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The create request behind a fresh password; the field errors of a refusal go to the form. */
export function useCreateOnce<Body, Made>({
  path,
  action,
  refresh,
  done,
  failed,
  setErrors,
  onCreated,
}: {
  path: string;
  /** What the password prompt says the seller is doing. */
  action: string;
  refresh: () => Promise<unknown>;
  done: { title: string; description?: string };
  failed: string;
  setErrors: (errors: Record<string, string>) => void;
  onCreated: (made: Made) => void;
}) {
  return useMutation({
    mutationFn: (body: Body) =>
      withStepUp(async () => (await (await apiRequest('POST', path, body)).json()) as Made, action),
    onSuccess: (made) => {
      void refresh();
      toast(done);
      onCreated(made);
    },
    onError: (error) => {
      if (error instanceof ApiError) setErrors(error.errors);
      toast({ title: failed, description: serverMessage(error), variant: 'destructive' });
    },
  });
}

/** A fieldset of checkboxes choosing some of a fixed list, with its error under it. */
export function ChoiceFieldset<T extends string>({
  legend,
  options,
  chosen,
  onChange,
  idPrefix,
  error,
  errorId,
  itemClassName,
  checkboxClassName,
  labelClassName,
  label,
}: {
  legend: string;
  options: readonly T[];
  chosen: T[];
  onChange: (update: (now: T[]) => T[]) => void;
  idPrefix: string;
  error: string | undefined;
  errorId: string;
  itemClassName: string;
  checkboxClassName?: string;
  labelClassName: string;
  label: (option: T) => React.ReactNode;
}) {
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      {options.map((option) => (
        <div key={option} className={itemClassName}>
          <Checkbox
            id={`${idPrefix}-${option}`}
            className={checkboxClassName}
            checked={chosen.includes(option)}
            onCheckedChange={(on) =>
              onChange((now) => (on === true ? [...now, option] : now.filter((o) => o !== option)))
            }
          />
          <Label htmlFor={`${idPrefix}-${option}`} className={labelClassName}>
            {label(option)}
          </Label>
        </div>
      ))}
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

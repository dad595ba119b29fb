import {
  CLAWBACK_REASON_LABELS,
  CLAWBACK_REASONS,
  type ClawbackReason,
  createClawbackSchema,
} from '@shared/ledger';
import { formatMoney } from '@shared/money';
import { useMutation } from '@tanstack/react-query';
import { UndoIcon } from 'lucide-react';
import * as React from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-text-field';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextareaField, TextField } from '@/components/ui/text-field';
import { useTextInput } from '@/hooks/use-text-input';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { refreshAfterClawback } from './queries';

type Errors = Partial<Record<'amount' | 'reason' | 'note', string>>;

/** The words for a refusal: the server's, per field when it names one (decision 114). */
function refusal(error: unknown): { form: string | null; fields: Errors } {
  if (!(error instanceof ApiError)) return { form: 'Could not take the money back', fields: {} };
  const message = serverMessage(error) ?? 'Could not take the money back';
  if (error.code === 'not_paid') return { form: message, fields: {} };
  if (error.status === 400) return { form: message, fields: error.errors as Errors };
  return { form: message, fields: {} };
}

/**
 * "Take back money" on a paid card (issue 39): an amount up to what is left of its payment, a
 * reason, and a note the seller reads with it. Folded until asked for.
 */
export function ClawbackForm({ transactionId, left }: { transactionId: string; left: string }) {
  const [open, setOpen] = React.useState(false);
  const amount = useTextInput(left);
  const [reason, setReason] = React.useState<ClawbackReason>('already_redeemed');
  const note = useTextInput();
  const [errors, setErrors] = React.useState<Errors>({});
  const [failure, setFailure] = React.useState<string | null>(null);

  const save = useMutation({
    mutationFn: async (body: unknown) =>
      (await apiRequest('POST', `/api/admin/transactions/${transactionId}/clawback`, body)).json(),
    onSuccess: async () => {
      setOpen(false);
      note.set('');
      await refreshAfterClawback();
      toast({ title: 'Money taken back', description: 'The seller was told why.' });
    },
    onError: (error) => {
      const { form, fields } = refusal(error);
      setFailure(form);
      setErrors(fields);
    },
  });

  if (!open) {
    return (
      <Button
        type="button"
        variant="outline"
        className="w-fit"
        disabled={left === '0.00'}
        onClick={() => {
          amount.set(left);
          setOpen(true);
        }}
        data-testid="clawback-open"
      >
        <UndoIcon /> Take back money
      </Button>
    );
  }

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const parsed = createClawbackSchema.safeParse({
      amount: amount.value,
      reason,
      note: note.value || null,
    });
    if (!parsed.success) {
      const fields: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Errors;
        fields[key] ??= issue.message;
      }
      setErrors(fields);
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  return (
    <form
      className="grid gap-4 rounded-lg border p-4"
      onSubmit={submit}
      noValidate
      aria-labelledby="clawback-form-heading"
      data-testid="clawback-form"
    >
      <h4 id="clawback-form-heading" className="font-semibold">
        Take back money
      </h4>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="clawback-amount"
          label="Amount"
          inputMode="decimal"
          {...amount.input}
          error={errors.amount}
          hint={`At most ${formatMoney(left)}, what is left of the payment`}
        />
        <Field id="clawback-reason" label="Reason" error={errors.reason}>
          <NativeSelect
            id="clawback-reason"
            value={reason}
            onChange={(e) => setReason(e.target.value as ClawbackReason)}
          >
            {CLAWBACK_REASONS.map((r) => (
              <option key={r} value={r}>
                {CLAWBACK_REASON_LABELS[r]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <TextareaField
        id="clawback-note"
        label={reason === 'other' ? 'Why (the seller reads it)' : 'Note (the seller reads it)'}
        {...note.input}
        error={errors.note}
        rows={2}
        maxLength={2000}
      />
      <FormAlert message={failure} />
      <FormActions
        label="Take back"
        pendingLabel="Taking back..."
        pending={save.isPending}
        onCancel={() => setOpen(false)}
        testId="clawback-submit"
      />
    </form>
  );
}

import type { Clawback } from '@shared/ledger';
import { formatMoney } from '@shared/money';
import { useMutation } from '@tanstack/react-query';
import * as React from 'react';
import { FormActions } from '@/components/form-actions';
import { FormAlert } from '@/components/form-text-field';
import { Button } from '@/components/ui/button';
import { TextareaField } from '@/components/ui/text-field';
import { useTextInput } from '@/hooks/use-text-input';
import { apiRequest, serverMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { refreshAfterClawback } from './queries';

/** Finance write off what is still owed back on a clawback, to losses, saying why (issue 39). */
export function WriteOff({ clawback }: { clawback: Clawback }) {
  const [open, setOpen] = React.useState(false);
  const note = useTextInput();
  const [error, setError] = React.useState<string | null>(null);
  const save = useMutation({
    mutationFn: async () =>
      (
        await apiRequest('POST', `/api/admin/clawbacks/${clawback.id}/write-off`, {
          note: note.value.trim(),
        })
      ).json(),
    onSuccess: async () => {
      setOpen(false);
      await refreshAfterClawback();
      toast({
        title: 'Written off',
        description: `${formatMoney(clawback.outstanding)} is no longer owed back.`,
      });
    },
    onError: (e) => setError(serverMessage(e) ?? 'Could not write it off'),
  });

  if (!open) {
    return (
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="w-fit"
        onClick={() => setOpen(true)}
        data-testid="write-off-open"
      >
        Write off
      </Button>
    );
  }
  const id = `write-off-${clawback.id}`;
  return (
    <form
      className="grid gap-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!note.value.trim()) return setError('Say why it is written off');
        setError(null);
        save.mutate();
      }}
    >
      <TextareaField
        id={id}
        label={`Why write off ${formatMoney(clawback.outstanding)}`}
        {...note.input}
        rows={2}
        maxLength={2000}
      />
      <FormAlert message={error} />
      <FormActions
        label="Write off"
        pendingLabel="Writing off..."
        pending={save.isPending}
        onCancel={() => setOpen(false)}
        testId="write-off-submit"
      />
    </form>
  );
}

import { Button } from '@/components/ui/button';

/**
 * A form's closing row: Cancel (when there is somewhere to go back to) and the submit button,
 * which says `pendingLabel` and is disabled while the form is being sent. On a phone the submit
 * button comes first, full width.
 */
export function FormActions({
  label,
  pending,
  pendingLabel = 'Saving...',
  onCancel,
  form,
  testId,
}: {
  label: string;
  pending: boolean;
  pendingLabel?: string;
  onCancel?: () => void;
  /** The form's id, when the row stands outside the form (a dialog's footer). */
  form?: string;
  testId?: string;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      {onCancel && (
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      )}
      <Button type="submit" form={form} disabled={pending} data-testid={testId}>
        {pending ? pendingLabel : label}
      </Button>
    </div>
  );
}

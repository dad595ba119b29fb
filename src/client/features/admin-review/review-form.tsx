import type { AdminTransactionDetail } from '@shared/admin';
import { RefreshCwIcon } from 'lucide-react';
import * as React from 'react';
import { CardImages } from '@/components/card-images';
import { FormActions } from '@/components/form-actions';
import { Button } from '@/components/ui/button';
import { useShortcuts } from '@/hooks/use-shortcuts';
import { AuditHistory } from './audit-history';
import { CardDetails, CustomerFeedback, PaymentMethodDetails } from './review-card-details';
import { DecisionFields, QuickActions } from './review-decision';
import { ShortcutsDialog } from './review-shortcuts';
import { useReviewForm } from './use-review-form';

/** A reviewer's form: the photos, the card, where it is paid, the decision and its history. */
export function ReviewForm({
  transaction: t,
  onClose,
  onReload,
}: {
  transaction: AdminTransactionDetail;
  onClose: () => void;
  onReload: () => void;
}) {
  const form = useReviewForm(t, onClose);
  // Keyboard review (issue 21, item 4): A approves in one key, R opens the reason picker.
  const [showKeys, setShowKeys] = React.useState(false);
  useShortcuts(
    { a: form.actions.approve, r: form.actions.reject, '?': () => setShowKeys(true) },
    !form.save.isPending && !showKeys,
  );

  return (
    <form className="grid gap-6" onSubmit={form.submit}>
      {form.stale && <StaleNotice onReload={onReload} />}
      <CardImages urls={t.imageUrls} removed={t.removedImages} />
      <QuickActions form={form} />
      <CardDetails transaction={t} />
      <PaymentMethodDetails transaction={t} />
      <DecisionFields form={form} transaction={t} />
      <CustomerFeedback feedback={t.feedback} />
      <AuditHistory entries={t.audit} />
      <FormActions
        label="Save Changes"
        pending={form.save.isPending}
        onCancel={onClose}
        testId="save-review"
      />
      <p className="text-right text-xs text-muted-foreground" data-testid="review-keys-hint">
        Keys: <kbd className="font-mono">A</kbd> approve · <kbd className="font-mono">R</kbd> reject
        · <kbd className="font-mono">?</kbd> all shortcuts
      </p>
      <ShortcutsDialog open={showKeys} onClose={() => setShowKeys(false)} />
    </form>
  );
}

/** Someone else saved the card after it was opened (decision 014): reload to see their changes. */
function StaleNotice({ onReload }: { onReload: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900 dark:border-yellow-400/30 dark:bg-yellow-400/10 dark:text-yellow-200"
    >
      <span>
        Someone else changed this transaction after you opened it. Reload to see their changes.
      </span>
      <Button type="button" size="sm" variant="outline" onClick={onReload}>
        <RefreshCwIcon /> Reload
      </Button>
    </div>
  );
}

import { PAYMENT_METHOD_INFO, PAYMENT_METHOD_TYPES } from '@shared/payment-methods';
import type { Reconciliation } from '@shared/reconciliation';
import { UploadIcon } from 'lucide-react';
import * as React from 'react';
import { FormAlert } from '@/components/form-text-field';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { useFileForm } from '@/features/admin-shared/file-form';
import { StaffSection } from '@/features/admin-shared/staff-section';
import { apiRequest } from '@/lib/api';
import { refreshAfterReconciliation } from './queries';
import { ReconciliationResult } from './reconciliation-result';

/**
 * Reconciliation (issue 39): a payout method's statement file (CSV: date, amount, reference,
 * optionally payee) matched to the payments sent through it; a matched line confirms its payment.
 */
export function ReconciliationUpload() {
  const [paymentType, setPaymentType] = React.useState<string>('paypal');
  const { upload, error, submit, choose } = useFileForm({
    send: async (file) => {
      const form = new FormData();
      // The payment type before the file: the server reads the fields sent ahead of it.
      form.append('paymentType', paymentType);
      form.append('file', file);
      const response = await apiRequest('POST', '/api/admin/reconciliation/statements', form);
      return (await response.json()) as Reconciliation;
    },
    onSuccess: () => refreshAfterReconciliation(),
    missing: 'Choose the statement file',
    failed: 'Could not read the statement',
  });
  return (
    <StaffSection
      id="reconciliation"
      title="Reconcile a statement"
      description="A CSV from the payout method with date, amount and reference (payee optional). Lines are matched to the payments sent by their reference and amount."
      className="grid gap-4"
    >
      <form
        className="grid gap-3 sm:grid-cols-[12rem_minmax(0,20rem)_auto] sm:items-end sm:justify-start"
        onSubmit={submit}
        noValidate
        data-testid="reconciliation-form"
      >
        <Field id="reconciliation-type" label="Payment type">
          <NativeSelect
            id="reconciliation-type"
            value={paymentType}
            onChange={(e) => setPaymentType(e.target.value)}
          >
            {PAYMENT_METHOD_TYPES.map((type) => (
              <option key={type} value={type}>
                {PAYMENT_METHOD_INFO[type].label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="reconciliation-file" label="Statement file (CSV)">
          <Input id="reconciliation-file" type="file" accept=".csv,text/csv" onChange={choose} />
        </Field>
        <Button type="submit" disabled={upload.isPending} data-testid="reconciliation-submit">
          <UploadIcon /> {upload.isPending ? 'Matching...' : 'Upload and match'}
        </Button>
      </form>
      <FormAlert message={error} />
      {upload.data && <ReconciliationResult result={upload.data} />}
    </StaffSection>
  );
}

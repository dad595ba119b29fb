import { PAYMENT_METHOD_INFO, PAYMENT_METHOD_TYPES } from '@shared/payment-methods';
import type { Reconciliation } from '@shared/reconciliation';
import * as React from 'react';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/native-select';
import { useFileForm } from '@/features/admin-shared/file-form';
import { FileUploadForm } from '@/features/admin-shared/file-upload-form';
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
  const statement = useFileForm({
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
      <FileUploadForm
        state={statement}
        testId="reconciliation"
        className="grid gap-3 sm:grid-cols-[12rem_minmax(0,20rem)_auto] sm:items-end sm:justify-start"
        file={{ id: 'reconciliation-file', label: 'Statement file (CSV)', accept: '.csv,text/csv' }}
        label="Upload and match"
        pendingLabel="Matching..."
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
      </FileUploadForm>
      {statement.upload.data && <ReconciliationResult result={statement.upload.data} />}
    </StaffSection>
  );
}

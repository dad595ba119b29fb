import type { CreatePaymentMethodInput, UpdatePaymentMethodInput } from '@shared/payment-methods';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest, serverMessage } from '@/lib/api';
import { paymentMethodsQuery, refresh } from '@/lib/queries';
import { withStepUp } from '@/lib/reauth';
import { toast } from '@/lib/toast';

const refreshMethods = () => refresh(paymentMethodsQuery().queryKey);

export function usePaymentMethods() {
  return useQuery(paymentMethodsQuery());
}

/** A write to the customer's methods: refresh the list and toast the spec's texts. */
function useMethodWrite<T>(
  write: (input: T) => Promise<Response>,
  texts: { success: string; failure: string },
  onSuccess?: () => void,
) {
  return useMutation({
    // A change of where the money goes may ask for the password again first (decision 072).
    mutationFn: async (input: T) =>
      withStepUp(async () => (await write(input)).json() as Promise<unknown>),
    onSuccess: async () => {
      await refreshMethods();
      toast({ title: texts.success });
      onSuccess?.();
    },
    onError: (error) => {
      toast({ title: texts.failure, description: serverMessage(error), variant: 'destructive' });
    },
  });
}

export const useAddPaymentMethod = (onSuccess?: () => void) =>
  useMethodWrite(
    (body: CreatePaymentMethodInput) => apiRequest('POST', '/api/payment-methods', body),
    { success: 'Payment method added successfully', failure: 'Failed to add payment method' },
    onSuccess,
  );

export const useUpdatePaymentMethod = (onSuccess?: () => void) =>
  useMethodWrite(
    ({ id, body }: { id: string; body: UpdatePaymentMethodInput }) =>
      apiRequest('PATCH', `/api/payment-methods/${id}`, body),
    { success: 'Payment method updated successfully', failure: 'Failed to update payment method' },
    onSuccess,
  );

export const useDeletePaymentMethod = (onSuccess?: () => void) =>
  useMethodWrite(
    (id: string) => apiRequest('DELETE', `/api/payment-methods/${id}`),
    { success: 'Payment method deleted successfully', failure: 'Failed to delete payment method' },
    onSuccess,
  );

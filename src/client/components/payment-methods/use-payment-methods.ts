import type {
  CreatePaymentMethodInput,
  PaymentMethod,
  UpdatePaymentMethodInput,
} from '@shared/payment-methods';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest, serverMessage } from '@/lib/api';
import { paymentMethodsQuery } from '@/lib/queries';
import { queryClient } from '@/lib/query-client';
import { toast } from '@/lib/toast';

const refresh = () => queryClient.invalidateQueries({ queryKey: paymentMethodsQuery().queryKey });

export function usePaymentMethods() {
  return useQuery(paymentMethodsQuery());
}

export function useAddPaymentMethod(onSuccess?: () => void) {
  return useMutation({
    mutationFn: async (body: CreatePaymentMethodInput) =>
      (await apiRequest('POST', '/api/payment-methods', body)).json() as Promise<PaymentMethod>,
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Payment method added successfully' });
      onSuccess?.();
    },
    onError: (error) => {
      toast({
        title: 'Failed to add payment method',
        description: serverMessage(error),
        variant: 'destructive',
      });
    },
  });
}

export function useUpdatePaymentMethod(onSuccess?: () => void) {
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: UpdatePaymentMethodInput }) =>
      (
        await apiRequest('PATCH', `/api/payment-methods/${id}`, body)
      ).json() as Promise<PaymentMethod>,
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Payment method updated successfully' });
      onSuccess?.();
    },
    onError: (error) => {
      toast({
        title: 'Failed to update payment method',
        description: serverMessage(error),
        variant: 'destructive',
      });
    },
  });
}

export function useDeletePaymentMethod(onSuccess?: () => void) {
  return useMutation({
    mutationFn: async (id: string) =>
      (await apiRequest('DELETE', `/api/payment-methods/${id}`)).json(),
    onSuccess: async () => {
      await refresh();
      toast({ title: 'Payment method deleted successfully' });
      onSuccess?.();
    },
    onError: (error) => {
      toast({
        title: 'Failed to delete payment method',
        description: serverMessage(error),
        variant: 'destructive',
      });
    },
  });
}

import { type Transaction, WITHDRAW_CONFIRM } from '@shared/transactions';
import { useMutation } from '@tanstack/react-query';
import { Undo2Icon } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { apiRequest } from '@/lib/api';
import { errorToast } from '@/lib/error-toast';
import { refreshAfterSubmission } from '@/lib/queries';
import { toast } from '@/lib/toast';
import { CardActionButton } from './card-action-button';

/**
 * A seller takes back a card waiting for review (decision 135), after a confirmation. The server
 * decides whether it still can (a reviewer may have opened it): a refusal says why.
 */
export function WithdrawCard({
  transaction: t,
}: {
  transaction: Pick<Transaction, 'id' | 'cardType' | 'status' | 'paymentStatus' | 'offer'>;
}) {
  const [open, setOpen] = useState(false);
  const withdraw = useMutation({
    mutationFn: async () => (await apiRequest('POST', `/api/transactions/${t.id}/withdraw`)).json(),
    onSuccess: async () => {
      setOpen(false);
      await refreshAfterSubmission();
      toast({
        title: 'Card withdrawn',
        description: 'It will not be reviewed or paid, and no longer counts against your limits.',
      });
    },
    onError: (error) => {
      setOpen(false);
      errorToast('The card could not be withdrawn')(error);
    },
  });
  const withdrawable =
    t.status === 'pending' && t.paymentStatus === 'pending' && t.offer?.status !== 'pending';
  if (!withdrawable) return null;
  return (
    <>
      <CardActionButton onClick={() => setOpen(true)} testId="withdraw-card">
        <Undo2Icon /> Withdraw card
      </CardActionButton>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Withdraw your ${t.cardType} card?`}
        description={WITHDRAW_CONFIRM}
        confirmLabel="Withdraw card"
        pendingLabel="Withdrawing…"
        pending={withdraw.isPending}
        onConfirm={() => withdraw.mutate()}
      />
    </>
  );
}

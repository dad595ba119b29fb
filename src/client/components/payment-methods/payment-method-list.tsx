import { type PaymentMethod, paymentMethodLabel } from '@shared/payment-methods';
import { BanknoteIcon, CoinsIcon, PencilIcon, Trash2Icon, WalletIcon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { PaymentMethodForm } from './payment-method-form';
import { useDeletePaymentMethod, usePaymentMethods } from './use-payment-methods';

const iconFor = (type: string) =>
  type === 'bank_transfer' ? BanknoteIcon : type.startsWith('usdt') ? CoinsIcon : WalletIcon;

/** Where the payout goes, in one line: the identifier, or the bank and the account's last 4. */
export function paymentMethodDetail(
  method: Pick<PaymentMethod, 'type' | 'identifier' | 'bankName' | 'accountNumber'>,
) {
  if (method.type === 'bank_transfer') {
    return `${method.bankName ?? ''} ••••${(method.accountNumber ?? '').slice(-4)}`;
  }
  return method.identifier ?? '';
}

export function PaymentMethodList({ empty }: { empty: React.ReactNode }) {
  const { data: methods, isLoading } = usePaymentMethods();
  const [pendingDelete, setPendingDelete] = React.useState<PaymentMethod | null>(null);
  const [editing, setEditing] = React.useState<PaymentMethod | null>(null);
  const remove = useDeletePaymentMethod(() => setPendingDelete(null));

  if (isLoading) return <Skeleton className="h-20 w-full" />;
  if (!methods?.length) return <>{empty}</>;
  return (
    <>
      <ul className="grid grid-cols-1 gap-3" data-testid="payment-method-list">
        {methods.map((method) => {
          const Icon = iconFor(method.type);
          return (
            <li
              key={method.id}
              data-testid="payment-method"
              className="flex items-center gap-2 rounded-lg border bg-card p-4 shadow-xs sm:gap-4"
            >
              <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" />
              </span>
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {paymentMethodLabel(method.type)}
                  {method.isDefault && <Badge data-testid="default-badge">Default</Badge>}
                </p>
                <p className="text-sm text-muted-foreground wrap-anywhere">{method.accountName}</p>
                <p className="text-sm text-muted-foreground wrap-anywhere">
                  {paymentMethodDetail(method)}
                </p>
              </div>
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Edit ${paymentMethodLabel(method.type)} ${method.accountName}`}
                onClick={() => setEditing(method)}
              >
                <PencilIcon />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                aria-label={`Delete ${paymentMethodLabel(method.type)} ${method.accountName}`}
                onClick={() => setPendingDelete(method)}
              >
                <Trash2Icon className="text-destructive" />
              </Button>
            </li>
          );
        })}
      </ul>
      <DialogFrame
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        data-testid="payment-method-dialog"
        title="Edit Payment Method"
        description="Cards not paid yet are paid to the new details."
      >
        {editing && (
          <PaymentMethodForm
            key={editing.id}
            method={editing}
            onDone={() => setEditing(null)}
            onCancel={() => setEditing(null)}
          />
        )}
      </DialogFrame>
      <ConfirmDialog
        open={pendingDelete !== null}
        onOpenChange={(open) => !open && setPendingDelete(null)}
        title="Delete payment method?"
        description={
          pendingDelete
            ? `${paymentMethodLabel(pendingDelete.type)} (${pendingDelete.accountName}) will no longer be offered for new cards. Cards already submitted to it are still paid there.`
            : ''
        }
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => pendingDelete && remove.mutate(pendingDelete.id)}
      />
    </>
  );
}

import { PlusIcon, WalletIcon } from 'lucide-react';
import * as React from 'react';
import { PageHeader } from '@/components/page-header';
import { PaymentMethodForm } from '@/components/payment-methods/payment-method-form';
import { PaymentMethodList } from '@/components/payment-methods/payment-method-list';
import { Button } from '@/components/ui/button';
import { DialogFrame } from '@/components/ui/dialog';
import { useCustomerOnly } from '@/lib/use-customer-only';

export function PaymentMethodsPage() {
  const allowed = useCustomerOnly('Admins cannot add payment methods');
  const [open, setOpen] = React.useState(false);
  if (!allowed) return null;
  return (
    <div>
      <PageHeader
        title="Payment Methods"
        description="Where your payouts are sent. Choose one for each card you sell."
        actions={
          <Button onClick={() => setOpen(true)} data-testid="add-payment-method">
            <PlusIcon /> Add Payment Method
          </Button>
        }
      />
      <PaymentMethodList
        empty={
          <div className="rounded-xl border border-dashed bg-card p-10 text-center">
            <WalletIcon className="mx-auto size-10 text-muted-foreground" />
            <p className="mt-3 font-medium">No payment methods yet</p>
            <p className="mt-1 text-sm text-muted-foreground">
              Add one so we know where to send your money.
            </p>
            <Button className="mt-4" onClick={() => setOpen(true)}>
              <PlusIcon /> Add Payment Method
            </Button>
          </div>
        }
      />
      <DialogFrame
        open={open}
        onOpenChange={setOpen}
        data-testid="payment-method-dialog"
        title="Add Payment Method"
        description="We send your payouts here. Check the details carefully."
      >
        <PaymentMethodForm onDone={() => setOpen(false)} onCancel={() => setOpen(false)} />
      </DialogFrame>
    </div>
  );
}

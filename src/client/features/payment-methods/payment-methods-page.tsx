import { PageHeader } from '@/components/page-header';

export function PaymentMethodsPage() {
  return (
    <PageHeader title="Payment Methods" description="Where your payouts are sent." backHref="/" />
  );
}

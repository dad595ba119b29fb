import { PageHeader } from '@/components/page-header';

export function HistoryPage() {
  return (
    <PageHeader
      title="Transaction History"
      description="Every card you have submitted and its status."
      backHref="/"
    />
  );
}

import { PageHeader } from '@/components/page-header';

export function SupportPage() {
  return (
    <PageHeader
      title="Contact Support"
      description="Send us a ticket and we will get back to you."
      backHref="/"
    />
  );
}

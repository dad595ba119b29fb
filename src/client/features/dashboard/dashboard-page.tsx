import { PageHeader } from '@/components/page-header';

export function DashboardPage() {
  return (
    <PageHeader title="Dashboard" description="Your gift card sales at a glance." backHref={null} />
  );
}

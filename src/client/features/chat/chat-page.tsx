import { PageHeader } from '@/components/page-header';

export function ChatPage() {
  return <PageHeader title="Support Chat" description="Talk to our support team." backHref="/" />;
}

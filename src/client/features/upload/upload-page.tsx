import { PageHeader } from '@/components/page-header';

export function UploadPage() {
  return (
    <PageHeader
      title="Upload Gift Card"
      description="Enter your card details and photos to get paid."
      backHref="/"
    />
  );
}

import { API_KEY_LEVEL } from '@shared/partner-api';
import { useAuth } from '@/lib/auth';
import { ApiKeysCard, PartnerLevelNotice } from './api-keys-card';
import { WebhooksCard } from './webhooks-card';

/** The profile's API tab (issue 42): keys and webhooks for level-2 sellers, the way there for others. */
export function PartnerApiTab() {
  const { user } = useAuth();
  if (!user) return null;
  if (user.verificationLevel < API_KEY_LEVEL) {
    return <PartnerLevelNotice level={user.verificationLevel} />;
  }
  return (
    <div className="grid gap-6">
      <ApiKeysCard />
      <WebhooksCard />
    </div>
  );
}

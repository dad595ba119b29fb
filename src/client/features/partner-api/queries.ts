import type { ApiKey, WebhookDelivery, WebhookEndpoint } from '@shared/partner-api';
import { queryOptions } from '@tanstack/react-query';
import { refresh } from '@/lib/queries';

/** The seller's API keys and webhook endpoints in the profile (issue 42, decision 146). */
export const API_KEYS_PATH = '/api/api-keys';
export const WEBHOOK_ENDPOINTS_PATH = '/api/webhook-endpoints';

export const apiKeysQuery = () => queryOptions<ApiKey[]>({ queryKey: [API_KEYS_PATH] });
export const refreshApiKeys = () => refresh(apiKeysQuery().queryKey);

export const webhookEndpointsQuery = () =>
  queryOptions<WebhookEndpoint[]>({ queryKey: [WEBHOOK_ENDPOINTS_PATH] });
export const refreshWebhookEndpoints = () => refresh(webhookEndpointsQuery().queryKey);

/** An endpoint's delivery log (the default query function joins the key into its path). */
export const deliveriesQuery = (endpointId: string) =>
  queryOptions<WebhookDelivery[]>({
    queryKey: [WEBHOOK_ENDPOINTS_PATH, endpointId, 'deliveries'],
  });
export const refreshDeliveries = (endpointId: string) =>
  refresh(deliveriesQuery(endpointId).queryKey);

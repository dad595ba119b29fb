import {
  type CreateWebhookEndpointInput,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
} from '@shared/partner-api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { KeyRoundIcon, SendIcon, WebhookIcon } from 'lucide-react';
import * as React from 'react';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { apiRequest, serverMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/dates';
import { withStepUp } from '@/lib/reauth';
import { toast } from '@/lib/toast';
import { ChoiceFieldset, CreatedOnceCard, useCreateOnce } from './created-once-card';
import {
  deliveriesQuery,
  refreshDeliveries,
  refreshWebhookEndpoints,
  WEBHOOK_ENDPOINTS_PATH,
  webhookEndpointsQuery,
} from './queries';
import { ShownOnce } from './shown-once';

const EVENT_LABELS: Record<WebhookEvent, string> = {
  'card.updated': "A card's status, payment, offer or appeal changes",
  'payout.updated': 'A payout is sent, settles or fails',
  'clawback.created': 'Money paid for a card is taken back',
};

type Created = { id: string; url: string; events: WebhookEvent[]; secret: string };

/** Issue 42: a seller's webhook endpoints, their signing secret shown once, and their log. */
export function WebhooksCard() {
  const endpoints = useQuery(webhookEndpointsQuery());
  return (
    <CreatedOnceCard<Created, WebhookEndpoint>
      testId="webhooks-card"
      title="Webhooks"
      description="We send your cards' changes to up to 5 HTTPS addresses, signed per Standard Webhooks, and try again for 3 days if your server does not answer 2xx."
      toggleTestId="toggle-webhook-form"
      openLabel="Add endpoint"
      shown={(created) => ({
        testId: 'new-webhook-secret',
        label: `Signing secret for ${created.url}`,
        value: created.secret,
        warning:
          "Copy this secret into the system that receives the webhooks: it checks each delivery's signature with it. It is shown only this once.",
      })}
      form={(onCreated) => <EndpointForm onCreated={onCreated} />}
      items={endpoints.data ?? []}
      loaded={endpoints.isSuccess}
      empty="No webhook endpoints yet."
      listLabel="Your webhook endpoints"
      listClassName="grid gap-4"
      row={(endpoint) => <EndpointRow key={endpoint.id} endpoint={endpoint} />}
    />
  );
}

function EndpointForm({ onCreated }: { onCreated: (endpoint: Created) => void }) {
  const [url, setUrl] = React.useState('');
  const [events, setEvents] = React.useState<WebhookEvent[]>(['card.updated']);
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const add = useCreateOnce<CreateWebhookEndpointInput, Created>({
    path: WEBHOOK_ENDPOINTS_PATH,
    action: 'add a webhook endpoint',
    refresh: refreshWebhookEndpoints,
    done: { title: 'Webhook endpoint added' },
    failed: 'Could not add the endpoint',
    setErrors,
    onCreated,
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!url.trim().startsWith('https://')) problems.url = 'The URL must start with https://';
    if (events.length === 0) problems.events = 'Choose at least one event';
    setErrors(problems);
    if (Object.keys(problems).length === 0) add.mutate({ url: url.trim(), events });
  };
  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Add a webhook endpoint">
      <TextField
        id="webhook-url"
        label="URL"
        type="url"
        inputMode="url"
        placeholder="https://example.com/cardbridge"
        value={url}
        maxLength={2000}
        onChange={(e) => setUrl(e.target.value)}
        error={errors.url}
        hint="HTTPS, reachable from the internet. Redirects are not followed."
      />
      <ChoiceFieldset
        legend="Events"
        options={WEBHOOK_EVENTS}
        chosen={events}
        onChange={setEvents}
        idPrefix="event"
        error={errors.events}
        errorId="webhook-events-error"
        itemClassName="flex items-start gap-2"
        checkboxClassName="mt-0.5"
        labelClassName="grid gap-0.5 font-normal"
        label={(type) => (
          <>
            <code className="text-sm">{type}</code>
            <span className="text-xs text-muted-foreground">{EVENT_LABELS[type]}</span>
          </>
        )}
      />
      <Button type="submit" className="w-fit" disabled={add.isPending}>
        <WebhookIcon /> {add.isPending ? 'Adding...' : 'Add endpoint'}
      </Button>
    </form>
  );
}

function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [confirming, setConfirming] = React.useState(false);
  const [rotating, setRotating] = React.useState(false);
  const [newSecret, setNewSecret] = React.useState<string | null>(null);
  const [logOpen, setLogOpen] = React.useState(false);
  const rotate = useMutation({
    mutationFn: () =>
      withStepUp(
        async () =>
          (await (
            await apiRequest('POST', `${WEBHOOK_ENDPOINTS_PATH}/${endpoint.id}/rotate-secret`)
          ).json()) as { secret: string },
        'make a new signing secret',
      ),
    onSuccess: ({ secret }) => {
      setRotating(false);
      setNewSecret(secret);
      void refreshWebhookEndpoints();
    },
    onError: (error) =>
      toast({
        title: 'Could not make a new secret',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
  const remove = useMutation({
    mutationFn: () => apiRequest('DELETE', `${WEBHOOK_ENDPOINTS_PATH}/${endpoint.id}`),
    onSuccess: async () => {
      await refreshWebhookEndpoints();
      setConfirming(false);
      toast({ title: 'Webhook endpoint deleted' });
    },
    onError: (error) =>
      toast({
        title: 'Could not delete the endpoint',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
  const test = useMutation({
    mutationFn: () => apiRequest('POST', `${WEBHOOK_ENDPOINTS_PATH}/${endpoint.id}/test`),
    onSuccess: () => {
      setLogOpen(true);
      void refreshDeliveries(endpoint.id);
      toast({ title: 'Test event queued', description: 'It appears in the log below.' });
    },
    onError: (error) =>
      toast({
        title: 'Could not send a test event',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
  const logId = `deliveries-${endpoint.id}`;
  return (
    <li className="grid gap-3 rounded-lg border p-4" data-testid="webhook-endpoint-row">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <p className="break-all font-mono text-sm font-semibold">{endpoint.url}</p>
          <div className="flex flex-wrap gap-1">
            {endpoint.events.map((type) => (
              <Badge key={type} variant="secondary">
                {type}
              </Badge>
            ))}
            {endpoint.disabledAt && (
              <Badge variant="outline" className="border-destructive text-destructive">
                Turned off {formatDateTime(endpoint.disabledAt)}
              </Badge>
            )}
          </div>
          <p className="text-xs text-muted-foreground">
            Added {formatDateTime(endpoint.createdAt)}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => test.mutate()} disabled={test.isPending}>
          <SendIcon /> Send test event
        </Button>
        <Button
          size="sm"
          variant="outline"
          aria-expanded={logOpen}
          aria-controls={logId}
          onClick={() => setLogOpen((open) => !open)}
        >
          {logOpen ? 'Hide deliveries' : 'Show deliveries'}
        </Button>
        <Button size="sm" variant="outline" onClick={() => setRotating(true)}>
          <KeyRoundIcon /> New secret
        </Button>
        <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
          Delete<span className="sr-only"> {endpoint.url}</span>
        </Button>
      </div>
      {newSecret && (
        <ShownOnce
          testId="rotated-webhook-secret"
          label="Your new signing secret"
          value={newSecret}
          warning="Put this secret in your receiver. The old one keeps signing beside it for 24 hours, then stops. It is shown only this once."
          onDone={() => setNewSecret(null)}
        />
      )}
      {logOpen && <DeliveryLog id={logId} endpointId={endpoint.id} />}
      <ConfirmDialog
        open={rotating}
        onOpenChange={setRotating}
        title="Make a new signing secret?"
        description="Deliveries are signed with the new secret and, for 24 hours, the old one too, so you have a day to update your receiver. After that the old secret no longer verifies."
        confirmLabel="Make new secret"
        pendingLabel="Making..."
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate()}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this webhook endpoint?"
        description={`Nothing more is sent to ${endpoint.url}, and its delivery log is deleted with it.`}
        confirmLabel="Delete endpoint"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}

const STATUS_TEXT: Record<string, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

function outcome(delivery: WebhookDelivery) {
  if (delivery.lastStatus !== null) return `HTTP ${delivery.lastStatus}`;
  return delivery.lastError ?? (delivery.attempts === 0 ? 'Not tried yet' : 'No answer');
}

/** A try is claimed for a minute; the first retry comes 5 s after the first try. */
const dueSoon = (d: WebhookDelivery) =>
  d.nextAttemptAt === null || Date.parse(d.nextAttemptAt) - Date.now() <= 70_000;

function DeliveryLog({ id, endpointId }: { id: string; endpointId: string }) {
  const log = useQuery({
    ...deliveriesQuery(endpointId),
    // While a delivery is being tried, or is due again within a minute, look every few seconds.
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending' && dueSoon(d)) ? 2000 : false,
  });
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      apiRequest('POST', `${WEBHOOK_ENDPOINTS_PATH}/${endpointId}/deliveries/${deliveryId}/resend`),
    onSuccess: () => {
      void refreshDeliveries(endpointId);
      toast({ title: 'Delivery queued again' });
    },
    onError: (error) =>
      toast({
        title: 'Could not resend',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
  const rows = log.data ?? [];
  return (
    <section id={id} aria-label="Recent deliveries" className="grid gap-2">
      <h3 className="text-sm font-semibold">Recent deliveries</h3>
      {log.isSuccess && rows.length === 0 && (
        <p className="text-sm text-muted-foreground">Nothing sent yet.</p>
      )}
      {rows.length > 0 && (
        <ul className="grid gap-2">
          {rows.map((delivery) => (
            <li
              key={delivery.id}
              data-testid="webhook-delivery"
              data-status={delivery.status}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm"
            >
              <div className="grid min-w-0 gap-0.5">
                <span>
                  <code className="font-medium">{delivery.eventType}</code>
                  <span className="text-muted-foreground">
                    {' · '}
                    {formatDateTime(delivery.lastAttemptAt ?? delivery.createdAt)}
                  </span>
                </span>
                <span className="text-muted-foreground">
                  <span className="font-medium text-foreground">
                    {STATUS_TEXT[delivery.status] ?? delivery.status}
                  </span>
                  {' · '}
                  {outcome(delivery)}
                  {delivery.lastDurationMs !== null ? ` · ${delivery.lastDurationMs} ms` : ''}
                  {delivery.attempts > 1 ? ` · ${delivery.attempts} tries` : ''}
                </span>
              </div>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => resend.mutate(delivery.id)}
                disabled={resend.isPending}
              >
                Resend
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

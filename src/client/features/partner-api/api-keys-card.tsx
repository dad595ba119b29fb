import {
  API_KEY_LEVEL,
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type ApiKey,
  type ApiKeyScope,
  type CreateApiKeyInput,
} from '@shared/partner-api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { KeyRoundIcon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'wouter';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TextField } from '@/components/ui/text-field';
import { apiRequest, serverMessage } from '@/lib/api';
import { formatDate, formatDateTime } from '@/lib/dates';
import { toast } from '@/lib/toast';
import { ChoiceFieldset, CreatedOnceCard, useCreateOnce } from './created-once-card';
import { API_KEYS_PATH, apiKeysQuery, refreshApiKeys } from './queries';

type Created = { id: string; key: string; last4: string; scopes: ApiKeyScope[] };

/** Why a seller below level 2 has no keys, and the way to level 2. */
export function PartnerLevelNotice({ level }: { level: number }) {
  return (
    <Card data-testid="api-level-notice">
      <CardHeader>
        <CardTitle>API keys and webhooks</CardTitle>
        <CardDescription>
          Sell e-codes from your own systems through the Cardbridge API, and hear about your cards
          by webhook.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p className="text-sm">
          API keys are for sellers at verification level {API_KEY_LEVEL}. You are at level {level}:{' '}
          {level === 0
            ? 'verify your identity, then your address, to reach it.'
            : 'verify your address to reach it.'}
        </p>
        <Button asChild className="w-fit">
          <Link href="/verification">Verify now</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** Issue 42: a level-2 seller's API keys, created (shown once), listed and revoked. */
export function ApiKeysCard() {
  const keys = useQuery(apiKeysQuery());
  return (
    <CreatedOnceCard<Created, ApiKey>
      testId="api-keys-card"
      title="API keys"
      description={
        <>
          A key lets your own systems sell and read your cards through{' '}
          <a className="underline underline-offset-2" href="/api/v1/openapi.json">
            the partner API
          </a>
          , with only the scopes you give it.
        </>
      }
      toggleTestId="toggle-api-key-form"
      openLabel="Create API key"
      shown={(created) => ({
        testId: 'new-api-key',
        label: `Your new key ending ${created.last4}`,
        value: created.key,
        warning:
          'Copy this key now and keep it somewhere safe. It is shown only this once: we keep only a fingerprint of it. If you lose it, revoke it and create another.',
      })}
      form={(onCreated) => <CreateKeyForm onCreated={onCreated} />}
      items={keys.data ?? []}
      loaded={keys.isSuccess}
      empty="No API keys yet."
      listLabel="Your API keys"
      listClassName="grid gap-3"
      row={(key) => <KeyRow key={key.id} apiKey={key} />}
    />
  );
}

const tomorrow = () => {
  const d = new Date(Date.now() + 24 * 60 * 60 * 1000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

function CreateKeyForm({ onCreated }: { onCreated: (key: Created) => void }) {
  const [name, setName] = React.useState('');
  const [scopes, setScopes] = React.useState<ApiKeyScope[]>([]);
  const [expires, setExpires] = React.useState('');
  const [errors, setErrors] = React.useState<Record<string, string>>({});
  const create = useCreateOnce<CreateApiKeyInput, Created>({
    path: API_KEYS_PATH,
    action: 'create an API key',
    refresh: refreshApiKeys,
    done: { title: 'API key created', description: 'We have emailed you about it too.' },
    failed: 'Could not create the key',
    setErrors,
    onCreated,
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (name.trim() === '') problems.name = 'Name is required';
    if (scopes.length === 0) problems.scopes = 'Choose at least one scope';
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    create.mutate({
      name: name.trim(),
      scopes,
      // The end of the chosen day, where the seller is.
      expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
    });
  };
  return (
    <form className="grid gap-4" onSubmit={submit} noValidate aria-label="Create an API key">
      <TextField
        id="api-key-name"
        label="Name"
        value={name}
        maxLength={100}
        placeholder="e.g. Shop backend"
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
        hint="So you can tell your keys apart."
      />
      <ChoiceFieldset
        legend="Scopes"
        options={API_KEY_SCOPES}
        chosen={scopes}
        onChange={setScopes}
        idPrefix="scope"
        error={errors.scopes}
        errorId="api-key-scopes-error"
        itemClassName="flex items-center gap-2"
        labelClassName="font-normal"
        label={(scope) => (
          <>
            {API_KEY_SCOPE_LABELS[scope]}{' '}
            <code className="text-xs text-muted-foreground">{scope}</code>
          </>
        )}
      />
      <TextField
        id="api-key-expires"
        label="Expires (optional)"
        type="date"
        min={tomorrow()}
        value={expires}
        onChange={(e) => setExpires(e.target.value)}
        error={errors.expiresAt}
        hint="Leave empty for a key that works until you revoke it."
        className="sm:max-w-xs"
      />
      <Button type="submit" className="w-fit" disabled={create.isPending}>
        <KeyRoundIcon /> {create.isPending ? 'Creating...' : 'Create key'}
      </Button>
    </form>
  );
}

function keyState(key: ApiKey): { text: string; live: boolean } {
  if (key.revokedAt) return { text: `Revoked ${formatDate(key.revokedAt)}`, live: false };
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) {
    return { text: `Expired ${formatDate(key.expiresAt)}`, live: false };
  }
  return { text: 'Active', live: true };
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const [confirming, setConfirming] = React.useState(false);
  const revoke = useMutation({
    mutationFn: () => apiRequest('DELETE', `${API_KEYS_PATH}/${apiKey.id}`),
    onSuccess: async () => {
      await refreshApiKeys();
      setConfirming(false);
      toast({ title: 'API key revoked', description: `${apiKey.name} no longer works.` });
    },
    onError: (error) =>
      toast({
        title: 'Could not revoke the key',
        description: serverMessage(error),
        variant: 'destructive',
      }),
  });
  const state = keyState(apiKey);
  return (
    <li
      className="grid gap-2 rounded-lg border p-4"
      data-testid="api-key-row"
      data-state={state.live ? 'active' : 'inactive'}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <p className="break-words font-semibold">
            {apiKey.name}{' '}
            <span className="font-mono text-sm font-normal text-muted-foreground">
              cb_live_…{apiKey.last4}
            </span>
          </p>
          <div className="flex flex-wrap gap-1">
            {apiKey.scopes.map((scope) => (
              <Badge key={scope} variant="secondary">
                {scope}
              </Badge>
            ))}
          </div>
        </div>
        <div className="flex items-center gap-2">
          <Badge variant={state.live ? 'default' : 'outline'}>{state.text}</Badge>
          {state.live && (
            <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
              Revoke<span className="sr-only"> {apiKey.name}</span>
            </Button>
          )}
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Created</dt>
          <dd>{formatDateTime(apiKey.createdAt)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Last used</dt>
          <dd data-testid="api-key-last-used">
            {apiKey.lastUsedAt
              ? `${formatDateTime(apiKey.lastUsedAt)}${apiKey.lastUsedIp ? ` from ${apiKey.lastUsedIp}` : ''}`
              : 'Never'}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Expires</dt>
          <dd>{apiKey.expiresAt ? formatDate(apiKey.expiresAt) : 'Never'}</dd>
        </div>
      </dl>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Revoke ${apiKey.name}?`}
        description="Every request sent with this key is refused from now on, on every server. This cannot be undone: your systems need a new key."
        confirmLabel="Revoke key"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
    </li>
  );
}

import {
  API_KEY_LEVEL,
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type ApiKey,
  type ApiKeyScope,
  type CreateApiKeyInput,
} from '@shared/partner-api';
import { useMutation, useQuery } from '@tanstack/react-query';
import { KeyRoundIcon, PlusIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'wouter';
import { ConfirmDialog } from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { TextField } from '@/components/ui/text-field';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { formatDate, formatDateTime } from '@/lib/dates';
import { withStepUp } from '@/lib/reauth';
import { toast } from '@/lib/toast';
import { API_KEYS_PATH, apiKeysQuery, refreshApiKeys } from './queries';
import { ShownOnce } from './shown-once';

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
  const [formOpen, setFormOpen] = React.useState(false);
  const [created, setCreated] = React.useState<Created | null>(null);
  const keys = useQuery(apiKeysQuery());
  const list = keys.data ?? [];
  return (
    <Card data-testid="api-keys-card">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div>
          <CardTitle>API keys</CardTitle>
          <CardDescription>
            A key lets your own systems sell and read your cards through{' '}
            <a className="underline underline-offset-2" href="/api/v1/openapi.json">
              the partner API
            </a>
            , with only the scopes you give it.
          </CardDescription>
        </div>
        <Button
          variant={formOpen ? 'outline' : 'default'}
          onClick={() => setFormOpen((open) => !open)}
          aria-expanded={formOpen}
          data-testid="toggle-api-key-form"
        >
          {formOpen ? <XIcon /> : <PlusIcon />} {formOpen ? 'Close' : 'Create API key'}
        </Button>
      </CardHeader>
      <CardContent className="grid gap-6">
        {created && (
          <ShownOnce
            testId="new-api-key"
            label={`Your new key ending ${created.last4}`}
            value={created.key}
            warning="Copy this key now and keep it somewhere safe. It is shown only this once: we keep only a fingerprint of it. If you lose it, revoke it and create another."
            onDone={() => setCreated(null)}
          />
        )}
        {formOpen && (
          <div className="rounded-lg border bg-muted/30 p-4">
            <CreateKeyForm
              onCreated={(key) => {
                setCreated(key);
                setFormOpen(false);
              }}
            />
          </div>
        )}
        {keys.isSuccess && list.length === 0 && (
          <p className="text-sm text-muted-foreground">No API keys yet.</p>
        )}
        {list.length > 0 && (
          <ul className="grid gap-3" aria-label="Your API keys">
            {list.map((key) => (
              <KeyRow key={key.id} apiKey={key} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
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
  const create = useMutation({
    mutationFn: (body: CreateApiKeyInput) =>
      withStepUp(
        async () => (await (await apiRequest('POST', API_KEYS_PATH, body)).json()) as Created,
        'create an API key',
      ),
    onSuccess: (key) => {
      void refreshApiKeys();
      toast({ title: 'API key created', description: 'We have emailed you about it too.' });
      onCreated(key);
    },
    onError: (error) => {
      if (error instanceof ApiError) setErrors(error.errors);
      toast({
        title: 'Could not create the key',
        description: serverMessage(error),
        variant: 'destructive',
      });
    },
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
      <fieldset
        className="grid gap-2"
        aria-describedby={errors.scopes ? 'api-key-scopes-error' : undefined}
      >
        <legend className="mb-2 text-sm font-medium">Scopes</legend>
        {API_KEY_SCOPES.map((scope) => (
          <div key={scope} className="flex items-center gap-2">
            <Checkbox
              id={`scope-${scope}`}
              checked={scopes.includes(scope)}
              onCheckedChange={(on) =>
                setScopes((now) =>
                  on === true ? [...now, scope] : now.filter((held) => held !== scope),
                )
              }
            />
            <Label htmlFor={`scope-${scope}`} className="font-normal">
              {API_KEY_SCOPE_LABELS[scope]}{' '}
              <code className="text-xs text-muted-foreground">{scope}</code>
            </Label>
          </div>
        ))}
        {errors.scopes && (
          <p
            id="api-key-scopes-error"
            role="alert"
            className="text-sm font-medium text-destructive"
          >
            {errors.scopes}
          </p>
        )}
      </fieldset>
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

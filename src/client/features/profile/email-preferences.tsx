import {
  type EmailPreferences,
  OPTIONAL_EMAIL_LABELS,
  OPTIONAL_EMAILS,
  type OptionalEmail,
} from '@shared/email-preferences';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { apiRequest, serverMessage } from '@/lib/api';
import { queryClient } from '@/lib/query-client';
import { toast } from '@/lib/toast';
import { EMAIL_PREFERENCES_PATH, emailPreferencesQuery } from './queries';

/**
 * Which optional emails the customer gets (issue 22): status updates and digests, each with its
 * own switch. Password resets, confirmations and security alerts always go out, and say so.
 */
export function EmailPreferencesSection() {
  const { data: preferences } = useQuery(emailPreferencesQuery());
  const save = useMutation({
    mutationFn: async (next: EmailPreferences) =>
      (await (await apiRequest('PUT', EMAIL_PREFERENCES_PATH, next)).json()) as EmailPreferences,
    onSuccess: (saved) => {
      queryClient.setQueryData(emailPreferencesQuery().queryKey, saved);
    },
  });
  const change = async (kind: OptionalEmail, on: boolean) => {
    if (!preferences) return;
    try {
      await save.mutateAsync({ ...preferences, [kind]: on });
      const label = OPTIONAL_EMAIL_LABELS[kind].title;
      toast({
        title: `${label} ${on ? 'on' : 'off'}`,
        description: on
          ? 'We will email you these again.'
          : 'You will still see every update under the bell.',
      });
    } catch (error) {
      toast({ title: 'Could not save', description: serverMessage(error), variant: 'destructive' });
    }
  };
  return (
    <section aria-labelledby="email-preferences-title" className="grid gap-3">
      <div className="grid gap-1">
        <h3 id="email-preferences-title" className="font-semibold">
          Emails
        </h3>
        <p className="text-sm text-muted-foreground">
          Emails about your password, your sign-ins and anything needing your answer always come.
          Every optional email also has an unsubscribe link.
        </p>
      </div>
      {OPTIONAL_EMAILS.map((kind) => (
        <div key={kind} className="flex items-start gap-3 rounded-lg border p-4">
          {preferences ? (
            <Checkbox
              id={`email-${kind}`}
              checked={preferences[kind]}
              disabled={save.isPending}
              onCheckedChange={(checked) => change(kind, checked === true)}
              className="mt-0.5"
            />
          ) : (
            <Skeleton className="mt-0.5 size-4" />
          )}
          <div className="grid gap-1">
            <Label htmlFor={`email-${kind}`}>{OPTIONAL_EMAIL_LABELS[kind].title}</Label>
            <p className="text-sm text-muted-foreground">
              {OPTIONAL_EMAIL_LABELS[kind].description}
            </p>
          </div>
        </div>
      ))}
    </section>
  );
}

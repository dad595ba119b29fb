import { signInProblems } from '@shared/auth-rules';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { CurrentPasswordField, EmailField } from '@/components/form-text-field';
import { SubmitButton } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError, apiRequest, serverMessage } from '@/lib/api';
import { problemsResolver } from '@/lib/form';
import { toast } from '@/lib/toast';

type EmailValues = { email: string; password: string };

/**
 * A new email address (issue 22, item 3): a link goes to it, and the account moves only when it
 * is opened; the old address is told. The server checks everything again.
 */
export function ChangeEmailCard({ email }: { email: string }) {
  const [sent, setSent] = React.useState<string | null>(null);
  const form = useForm<EmailValues>({
    // The same rules as signing in: a valid address and a password.
    resolver: problemsResolver(signInProblems),
    defaultValues: { email: '', password: '' },
  });
  const submit = async (values: EmailValues) => {
    try {
      const answer = (await (await apiRequest('POST', '/api/account/email', values)).json()) as {
        message: string;
      };
      form.reset();
      setSent(answer.message);
    } catch (error) {
      const errors: Partial<EmailValues> = error instanceof ApiError ? error.errors : {};
      if (errors.email) form.setError('email', { message: errors.email });
      else if (errors.password) form.setError('password', { message: errors.password });
      else {
        toast({
          title: 'Could not change the email',
          description: serverMessage(error) ?? 'Please try again.',
          variant: 'destructive',
        });
      }
    }
  };
  const { isSubmitting } = form.formState;
  return (
    <Card data-testid="change-email-card">
      <CardHeader>
        <CardTitle>Email address</CardTitle>
        <CardDescription className="wrap-anywhere">
          Now {email}. A new address is used once you open the link we send to it.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid max-w-md gap-4">
        {sent && (
          <p className="rounded-md border bg-muted/40 p-3 text-sm" role="status">
            {sent}
          </p>
        )}
        <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(submit)}>
          <EmailField form={form} name="email" id="new-email" label="New email address" />
          <CurrentPasswordField
            form={form}
            name="password"
            id="email-change-password"
            label="Your password"
          />
          <SubmitButton pending={isSubmitting} pendingLabel="Sending..." className="w-fit">
            Send the link
          </SubmitButton>
        </form>
      </CardContent>
    </Card>
  );
}

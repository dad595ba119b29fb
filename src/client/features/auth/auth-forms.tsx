import { signInProblems, signUpProblems } from '@shared/auth-rules';
import type { CurrentUser, TwoFactorChallenge } from '@shared/auth-schemas';
import * as React from 'react';
import { type Path, type UseFormReturn, useForm } from 'react-hook-form';
import { CurrentPasswordField, EmailField, FormTextField } from '@/components/form-text-field';
import { Button, SubmitButton } from '@/components/ui/button';
import { apiRequest, serverMessage } from '@/lib/api';
import { refreshCurrentUser } from '@/lib/auth';
import { problemsResolver } from '@/lib/form';
import { toast } from '@/lib/toast';

// The second step is only for accounts with staff rights: loaded when one needs it.
const TwoFactorStep = React.lazy(async () => ({
  default: (await import('./two-factor-step')).TwoFactorStep,
}));

type SignInInput = { email: string; password: string };
type SignUpInput = SignInInput & { firstName: string; lastName: string };

/** The email field the sign-in, sign-up and reset forms each begin with. */
function AccountEmailField<T extends { email: string }>({
  form,
  id,
}: {
  form: UseFormReturn<T>;
  id: string;
}) {
  return (
    <EmailField
      form={form}
      name={'email' as Path<T>}
      id={id}
      label="Email"
      placeholder="you@example.com"
    />
  );
}

/**
 * Signs in or up through `url`, then refreshes the current user (spec section 4). A sign-in with
 * staff rights answers a second-factor challenge instead, handed to `onChallenge`.
 */
function useAuthSubmit<T>(
  url: string,
  failureTitle: string,
  fallback: string,
  onSuccess: () => void,
  onChallenge?: (challenge: TwoFactorChallenge) => void,
) {
  const [isPending, setPending] = React.useState(false);
  const submit = async (body: T) => {
    setPending(true);
    try {
      const answer = (await (await apiRequest('POST', url, body)).json()) as
        | CurrentUser
        | TwoFactorChallenge;
      if ('twoFactorRequired' in answer && onChallenge) {
        onChallenge(answer);
        return;
      }
      await refreshCurrentUser();
      onSuccess();
    } catch (error) {
      toast({
        title: failureTitle,
        description: serverMessage(error) ?? fallback,
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  };
  return { submit, isPending };
}

export function SignInForm({
  url = '/api/signin',
  onSuccess,
  onForgot,
  submitLabel = 'Sign In',
}: {
  url?: string;
  onSuccess: () => void;
  /** Shows the "Forgot password?" link, which calls this. */
  onForgot?: () => void;
  submitLabel?: string;
}) {
  const [challenge, setChallenge] = React.useState<TwoFactorChallenge | null>(null);
  const form = useForm<SignInInput>({
    resolver: problemsResolver(signInProblems),
    defaultValues: { email: '', password: '' },
  });
  const mutation = useAuthSubmit<SignInInput>(
    url,
    'Sign in failed',
    'Invalid email or password',
    onSuccess,
    setChallenge,
  );
  if (challenge) {
    return (
      <React.Suspense fallback={<p className="text-sm text-muted-foreground">Loading…</p>}>
        <TwoFactorStep
          challenge={challenge}
          onSuccess={onSuccess}
          onRestart={() => {
            form.resetField('password');
            setChallenge(null);
          }}
        />
      </React.Suspense>
    );
  }
  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(mutation.submit)}>
      <AccountEmailField form={form} id="signin-email" />
      <div className="grid gap-1.5">
        <CurrentPasswordField form={form} name="password" id="signin-password" label="Password" />
        {onForgot && (
          <button
            type="button"
            className="w-fit cursor-pointer justify-self-end text-sm text-primary underline-offset-4 hover:underline"
            onClick={onForgot}
            data-testid="forgot-password"
          >
            Forgot password?
          </button>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? 'Signing in...' : submitLabel}
      </Button>
    </form>
  );
}

/**
 * Asks for a reset link. The answer is the same whether or not the email has an account, so it
 * is shown as it comes.
 */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [sent, setSent] = React.useState<string | null>(null);
  const [isPending, setPending] = React.useState(false);
  const form = useForm<{ email: string }>({
    resolver: problemsResolver((values: { email: string }) => ({
      email: signInProblems({ email: values.email, password: 'x' }).email,
    })),
    defaultValues: { email: '' },
  });
  const submit = async ({ email }: { email: string }) => {
    setPending(true);
    try {
      const answer = (await (
        await apiRequest('POST', '/api/password/forgot', { email })
      ).json()) as {
        message: string;
      };
      setSent(answer.message);
    } catch (error) {
      toast({
        title: 'Could not send the link',
        description: serverMessage(error) ?? 'Please try again in a moment.',
        variant: 'destructive',
      });
    } finally {
      setPending(false);
    }
  };
  const back = (
    <Button type="button" variant="ghost" className="w-full" onClick={onBack}>
      Back to sign in
    </Button>
  );
  if (sent) {
    return (
      <div className="grid gap-4">
        <p
          className="rounded-lg border bg-muted/40 p-4 text-sm"
          role="status"
          data-testid="forgot-sent"
        >
          {sent}
        </p>
        {back}
      </div>
    );
  }
  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(submit)}>
      <AccountEmailField form={form} id="forgot-email" />
      <SubmitButton pending={isPending} pendingLabel="Sending..." className="w-full">
        Send reset link
      </SubmitButton>
      {back}
    </form>
  );
}

export function SignUpForm({ onSuccess }: { onSuccess: () => void }) {
  const form = useForm<SignUpInput>({
    resolver: problemsResolver(signUpProblems),
    defaultValues: { email: '', password: '', firstName: '', lastName: '' },
  });
  const mutation = useAuthSubmit<SignUpInput>(
    '/api/signup',
    'Sign up failed',
    'Could not create account',
    onSuccess,
  );
  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(mutation.submit)}>
      <div className="grid grid-cols-2 gap-3">
        <FormTextField
          form={form}
          name="firstName"
          id="signup-first-name"
          label="First Name"
          autoComplete="given-name"
        />
        <FormTextField
          form={form}
          name="lastName"
          id="signup-last-name"
          label="Last Name"
          autoComplete="family-name"
        />
      </div>
      <AccountEmailField form={form} id="signup-email" />
      <FormTextField
        form={form}
        name="password"
        id="signup-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        placeholder="Min. 8 characters"
      />
      <p className="text-xs text-muted-foreground">
        By creating an account you confirm you are 18 or older and agree to our{' '}
        <a href="/terms" className="underline underline-offset-2 hover:text-foreground">
          Terms of Service
        </a>{' '}
        and{' '}
        <a href="/privacy" className="underline underline-offset-2 hover:text-foreground">
          Privacy Policy
        </a>
        .
      </p>
      <SubmitButton
        pending={mutation.isPending}
        pendingLabel="Creating account..."
        className="w-full"
      >
        Create Account
      </SubmitButton>
    </form>
  );
}

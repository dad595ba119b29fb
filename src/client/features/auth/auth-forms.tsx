import { signInProblems, signUpProblems } from '@shared/auth-rules';
import type { CurrentUser } from '@shared/auth-schemas';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { apiRequest, serverMessage } from '@/lib/api';
import { refreshCurrentUser } from '@/lib/auth';
import { problemsResolver } from '@/lib/form';
import { toast } from '@/lib/toast';

type SignInInput = { email: string; password: string };
type SignUpInput = SignInInput & { firstName: string; lastName: string };

/** Signs in or up through `url`, then refreshes the current user (spec section 4). */
function useAuthSubmit<T>(
  url: string,
  failureTitle: string,
  fallback: string,
  onSuccess: () => void,
) {
  const [isPending, setPending] = React.useState(false);
  const submit = async (body: T) => {
    setPending(true);
    try {
      (await (await apiRequest('POST', url, body)).json()) as CurrentUser;
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
  submitLabel = 'Sign In',
}: {
  url?: string;
  onSuccess: () => void;
  submitLabel?: string;
}) {
  const form = useForm<SignInInput>({
    resolver: problemsResolver(signInProblems),
    defaultValues: { email: '', password: '' },
  });
  const mutation = useAuthSubmit<SignInInput>(
    url,
    'Sign in failed',
    'Invalid email or password',
    onSuccess,
  );
  const { errors } = form.formState;
  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(mutation.submit)}>
      <TextField
        id="signin-email"
        label="Email"
        error={errors.email?.message}
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        {...form.register('email')}
      />
      <TextField
        id="signin-password"
        label="Password"
        error={errors.password?.message}
        type="password"
        autoComplete="current-password"
        {...form.register('password')}
      />
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? 'Signing in...' : submitLabel}
      </Button>
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
  const { errors } = form.formState;
  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit(mutation.submit)}>
      <div className="grid grid-cols-2 gap-3">
        <TextField
          id="signup-first-name"
          label="First Name"
          error={errors.firstName?.message}
          autoComplete="given-name"
          {...form.register('firstName')}
        />
        <TextField
          id="signup-last-name"
          label="Last Name"
          error={errors.lastName?.message}
          autoComplete="family-name"
          {...form.register('lastName')}
        />
      </div>
      <TextField
        id="signup-email"
        label="Email"
        error={errors.email?.message}
        type="email"
        autoComplete="email"
        placeholder="you@example.com"
        {...form.register('email')}
      />
      <TextField
        id="signup-password"
        label="Password"
        error={errors.password?.message}
        type="password"
        autoComplete="new-password"
        placeholder="Min. 8 characters"
        {...form.register('password')}
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
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}

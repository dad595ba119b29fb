import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CurrentUser,
  type SignInInput,
  type SignUpInput,
  signInSchema,
  signUpSchema,
} from '@shared/auth-schemas';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, serverMessage } from '@/lib/api';
import { currentUserQuery } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';

/** Signs in or up through `url`, then refreshes the current user (spec section 4). */
export function useAuthMutation<T>(
  url: string,
  failureTitle: string,
  fallback: string,
  onSuccess: () => void,
) {
  return useMutation({
    mutationFn: async (body: T) =>
      (await apiRequest('POST', url, body)).json() as Promise<CurrentUser>,
    onSuccess: async () => {
      await queryClient.refetchQueries(currentUserQuery());
      onSuccess();
    },
    onError: (error) => {
      toast({
        title: failureTitle,
        description: serverMessage(error) ?? fallback,
        variant: 'destructive',
      });
    },
  });
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
    resolver: zodResolver(signInSchema),
    defaultValues: { email: '', password: '' },
  });
  const mutation = useAuthMutation<SignInInput>(
    url,
    'Sign in failed',
    'Invalid email or password',
    onSuccess,
  );
  const { errors } = form.formState;
  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
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
    resolver: zodResolver(signUpSchema),
    defaultValues: { email: '', password: '', firstName: '', lastName: '' },
  });
  const mutation = useAuthMutation<SignUpInput>(
    '/api/signup',
    'Sign up failed',
    'Could not create account',
    onSuccess,
  );
  const { errors } = form.formState;
  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
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

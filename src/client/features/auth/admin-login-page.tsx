import { ArrowLeftIcon, ShieldCheckIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useLocation } from 'wouter';
import { toast } from '@/lib/toast';
import { AuthCardPage } from './auth-card-page';
import { ForgotPasswordForm, SignInForm } from './auth-forms';

export function AdminLoginPage() {
  const [, navigate] = useLocation();
  const [forgot, setForgot] = React.useState(false);
  return (
    <AuthCardPage
      icon={<ShieldCheckIcon />}
      title="Admin Portal"
      description={
        forgot
          ? 'We will email you a link to choose a new password.'
          : 'Staff sign-in. Every action here is recorded.'
      }
    >
      {forgot ? (
        <ForgotPasswordForm onBack={() => setForgot(false)} />
      ) : (
        <SignInForm
          url="/api/admin/signin"
          onForgot={() => setForgot(true)}
          onSuccess={() => {
            toast({ title: 'Welcome back!', description: 'Successfully signed in as admin' });
            navigate('/admin');
          }}
        />
      )}
      <Link
        href="/"
        className="inline-flex items-center justify-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeftIcon className="size-4" /> Back to User Login
      </Link>
    </AuthCardPage>
  );
}

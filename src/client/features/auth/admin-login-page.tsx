import { STAFF_ROLE_LABELS, type StaffRole } from '@shared/staff-roles';
import { ArrowLeftIcon, ShieldCheckIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useLocation } from 'wouter';
import { adminReturnPath } from '@/lib/admin-return';
import { currentUser } from '@/lib/auth';
import { toast } from '@/lib/toast';
import { AuthCardPage } from './auth-card-page';
import { ForgotPasswordForm, SignInForm } from './auth-forms';

/**
 * The spec's "Successfully signed in as admin" for an owner; other staff are told their own role
 * (issue 43, item 14): a reviewer is not an admin.
 */
const signedInAs = (role: StaffRole | undefined) =>
  !role || role === 'owner'
    ? 'Successfully signed in as admin'
    : `Successfully signed in as ${STAFF_ROLE_LABELS[role].toLowerCase()}`;

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
            toast({ title: 'Welcome back!', description: signedInAs(currentUser()?.staffRole) });
            navigate(adminReturnPath(window.location.search));
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

import { nameProblems } from '@shared/auth-rules';
import type { CurrentUser } from '@shared/auth-schemas';
import { displayName } from '@shared/user-display';
import { BadgeCheckIcon, CalendarIcon, MailIcon, MailWarningIcon, UserIcon } from 'lucide-react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import { FormTextField } from '@/components/form-text-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { UserAvatar } from '@/components/user-avatar';
import { apiRequest, serverMessage } from '@/lib/api';
import { setCurrentUser } from '@/lib/auth';
import { formatDate } from '@/lib/dates';
import { problemsResolver } from '@/lib/form';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { EmailPreferencesSection } from './email-preferences';

type Names = { firstName: string; lastName: string };

async function saveProfile(body: Partial<Names>) {
  const user = (await (await apiRequest('PATCH', '/api/profile', body)).json()) as CurrentUser;
  setCurrentUser(user);
  return user;
}

/** The Profile Info tab: who the account is, its name (editable) and the email switch. */
export function ProfileDetails({ user }: { user: CurrentUser }) {
  const form = useForm<Names>({
    resolver: problemsResolver(nameProblems),
    defaultValues: { firstName: user.firstName ?? '', lastName: user.lastName ?? '' },
  });
  const submit = async (names: Names) => {
    try {
      const saved = await saveProfile(names);
      form.reset({ firstName: saved.firstName ?? '', lastName: saved.lastName ?? '' });
      toast({ title: 'Profile updated', description: 'Your name is saved.' });
    } catch (error) {
      toast({
        title: 'Could not save your name',
        description: serverMessage(error),
        variant: 'destructive',
      });
    }
  };
  const { isDirty, isSubmitting } = form.formState;
  return (
    <Card>
      <CardHeader className="flex-row items-center gap-4">
        <UserAvatar user={user} className="size-14 text-lg" />
        <div className="min-w-0">
          <CardTitle className="wrap-anywhere">{displayName(user)}</CardTitle>
          <CardDescription>{user.isAdmin ? 'Staff account' : 'Customer account'}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-6">
        <dl className="grid gap-4 sm:grid-cols-3">
          <InfoItem icon={<MailIcon />} label="Email" className="flex flex-wrap items-center gap-2">
            <span className="break-all" data-testid="profile-email">
              {user.email}
            </span>
            {user.emailVerified ? (
              <Badge variant="secondary" className="gap-1" data-testid="email-verified">
                <BadgeCheckIcon className="size-3.5" /> Verified
              </Badge>
            ) : (
              <Badge variant="outline" className="gap-1" data-testid="email-unverified">
                <MailWarningIcon className="size-3.5" /> Not confirmed
              </Badge>
            )}
          </InfoItem>
          <InfoItem
            icon={<UserIcon />}
            label="Name"
            className="wrap-anywhere"
            testId="profile-name"
          >
            {[user.firstName, user.lastName].filter(Boolean).join(' ') || 'Not set'}
          </InfoItem>
          <InfoItem icon={<CalendarIcon />} label="Member Since" testId="profile-member-since">
            {formatDate(user.createdAt)}
          </InfoItem>
        </dl>
        <form
          className="grid gap-4 border-t pt-6"
          noValidate
          onSubmit={form.handleSubmit(submit)}
          aria-label="Edit your name"
        >
          <div className="grid gap-3 sm:grid-cols-2">
            <FormTextField
              form={form}
              name="firstName"
              id="profile-first-name"
              label="First Name"
              autoComplete="given-name"
            />
            <FormTextField
              form={form}
              name="lastName"
              id="profile-last-name"
              label="Last Name"
              autoComplete="family-name"
            />
          </div>
          <Button type="submit" className="w-fit" disabled={!isDirty || isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Save name'}
          </Button>
        </form>
        {!user.isAdmin && <EmailPreferencesSection />}
      </CardContent>
    </Card>
  );
}

/** One fact in the account's summary: a labelled box. */
function InfoItem({
  icon,
  label,
  className,
  testId,
  children,
}: {
  icon: React.ReactNode;
  label: string;
  className?: string;
  testId?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="rounded-lg border bg-muted/30 p-4">
      <dt className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-muted-foreground [&_svg]:size-3.5">
        {icon} {label}
      </dt>
      <dd className={cn('mt-1.5 font-medium', className)} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

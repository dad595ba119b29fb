import { displayName } from '@shared/user-display';
import { CalendarIcon, MailIcon, PlusIcon, UserIcon, WalletIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { PageHeader } from '@/components/page-header';
import { PaymentMethodForm } from '@/components/payment-methods/payment-method-form';
import { PaymentMethodList } from '@/components/payment-methods/payment-method-list';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { UserAvatar } from '@/components/user-avatar';
import { useAuth } from '@/lib/auth';
import { formatDate } from '@/lib/dates';

export function ProfilePage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div>
      <PageHeader
        title="Profile Settings"
        description="Your account details and where you get paid."
        backHref="/dashboard"
        backClassName="md:hidden"
      />
      <Tabs defaultValue="info">
        <TabsList>
          <TabsTrigger value="info">
            <UserIcon className="size-4" /> Profile Info
          </TabsTrigger>
          <TabsTrigger value="payments">
            <WalletIcon className="size-4" /> Payment Methods
          </TabsTrigger>
        </TabsList>
        <TabsContent value="info">
          <Card>
            <CardHeader className="flex-row items-center gap-4">
              <UserAvatar user={user} className="size-14 text-lg" />
              <div>
                <CardTitle>{displayName(user)}</CardTitle>
                <CardDescription>
                  {user.isAdmin ? 'Staff account' : 'Customer account'}
                </CardDescription>
              </div>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-4 sm:grid-cols-3">
                <InfoItem
                  icon={<MailIcon />}
                  label="Email"
                  value={user.email}
                  testId="profile-email"
                />
                <InfoItem
                  icon={<UserIcon />}
                  label="Name"
                  value={[user.firstName, user.lastName].filter(Boolean).join(' ') || 'Not set'}
                  testId="profile-name"
                />
                <InfoItem
                  icon={<CalendarIcon />}
                  label="Member Since"
                  value={formatDate(user.createdAt)}
                  testId="profile-member-since"
                />
              </dl>
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="payments">
          <ProfilePayments />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function InfoItem({
  icon,
  label,
  value,
  testId,
}: {
  icon: React.ReactNode;
  label: string;
  value: string;
  testId: string;
}) {
  return (
    <div className="rounded-lg border bg-muted/30 p-4">
      <dt className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-muted-foreground [&_svg]:size-3.5">
        {icon} {label}
      </dt>
      <dd className="mt-1.5 break-all font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The payments tab: an add form that toggles open and closed, and the list (spec section 4). */
function ProfilePayments() {
  const { isAdmin } = useAuth();
  const [formOpen, setFormOpen] = React.useState(false);
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div>
          <CardTitle>Payment Methods</CardTitle>
          <CardDescription>Where your payouts are sent.</CardDescription>
        </div>
        {!isAdmin && (
          <Button
            variant={formOpen ? 'outline' : 'default'}
            onClick={() => setFormOpen((o) => !o)}
            data-testid="toggle-payment-form"
          >
            {formOpen ? <XIcon /> : <PlusIcon />} {formOpen ? 'Close' : 'Add Payment Method'}
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-6">
        {formOpen && (
          <div className="rounded-lg border bg-muted/30 p-4">
            <PaymentMethodForm onDone={() => setFormOpen(false)} />
          </div>
        )}
        <PaymentMethodList
          empty={<p className="text-sm text-muted-foreground">No payment methods yet.</p>}
        />
      </CardContent>
    </Card>
  );
}

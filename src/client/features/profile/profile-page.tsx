import {
  BadgeCheckIcon,
  KeyRoundIcon,
  LockKeyholeIcon,
  PlusIcon,
  ShieldIcon,
  UserIcon,
  WalletIcon,
  XIcon,
} from 'lucide-react';
import * as React from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { PaymentMethodForm } from '@/components/payment-methods/payment-method-form';
import { PaymentMethodList } from '@/components/payment-methods/payment-method-list';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/utils';
import { PartnerApiTab } from '../partner-api/partner-api-tab';
import { ChangeEmailCard } from './change-email-card';
import { PrivacyTab } from './privacy-tab';
import { ProfileDetails } from './profile-details';
import { RateAlertsCard } from './rate-alerts-card';
import { ChangePasswordCard, SessionsCard } from './security-card';
import { TwoFactorCard } from './two-factor-card';

const TABS = ['info', 'payments', 'security', 'privacy', 'api'] as const;

export function ProfilePage() {
  const { user } = useAuth();
  // The tab lives in the address (?tab=payments), so a link can open the payment methods.
  const asked = new URLSearchParams(useSearch()).get('tab');
  const tab = TABS.find((t) => t === asked) ?? 'info';
  const [, navigate] = useLocation();
  if (!user) return null;
  return (
    <div>
      <PageHeader
        title="Profile Settings"
        description="Your account details and where you get paid."
        backHref="/dashboard"
        backClassName="md:hidden"
      />
      {!user.isAdmin && <VerificationSummary level={user.verificationLevel} />}
      <Tabs
        value={tab}
        onValueChange={(next) => {
          // Each tab is a step in the browser's history: Back returns to the last tab. A press
          // reports its tab twice (focus, then click): one step, not two.
          const to = next === 'info' ? '/profile' : `/profile?tab=${next}`;
          if (to !== window.location.pathname + window.location.search) navigate(to);
        }}
      >
        {/* On a phone the tabs share the width, with short names and no icons. */}
        <TabsList
          className={cn(
            'grid w-full sm:inline-flex sm:w-auto [&_svg]:hidden sm:[&_svg]:block',
            user.isAdmin
              ? 'grid-cols-3'
              : // Five tabs share a phone's width: smaller words, less padding.
                'grid-cols-5 [&>button]:px-1 [&>button]:text-xs sm:[&>button]:px-3 sm:[&>button]:text-sm',
          )}
        >
          <TabsTrigger value="info">
            <UserIcon className="size-4" /> <span className="sm:hidden">Info</span>
            <span className="hidden sm:inline">Profile Info</span>
          </TabsTrigger>
          <TabsTrigger value="payments">
            <WalletIcon className="size-4" /> <span className="sm:hidden">Payments</span>
            <span className="hidden sm:inline">Payment Methods</span>
          </TabsTrigger>
          <TabsTrigger value="security">
            <ShieldIcon className="size-4" /> Security
          </TabsTrigger>
          {!user.isAdmin && (
            <TabsTrigger value="privacy">
              <LockKeyholeIcon className="size-4" /> Privacy
            </TabsTrigger>
          )}
          {!user.isAdmin && (
            <TabsTrigger value="api">
              <KeyRoundIcon className="size-4" /> API
            </TabsTrigger>
          )}
        </TabsList>
        <TabsContent value="info">
          <ProfileDetails user={user} />
          {!user.isAdmin && <RateAlertsCard className="mt-6" />}
        </TabsContent>
        <TabsContent value="security" className="grid gap-6">
          <ChangePasswordCard />
          {!user.isAdmin && <ChangeEmailCard email={user.email} />}
          {!user.isAdmin && <TwoFactorCard />}
          <SessionsCard />
        </TabsContent>
        <TabsContent value="payments">
          <ProfilePayments />
        </TabsContent>
        {!user.isAdmin && (
          <TabsContent value="privacy">
            <PrivacyTab />
          </TabsContent>
        )}
        {!user.isAdmin && (
          <TabsContent value="api">
            <PartnerApiTab />
          </TabsContent>
        )}
      </Tabs>
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

/** The customer's verification level, and the way to raise it (decision 072). */
function VerificationSummary({ level }: { level: number }) {
  return (
    <Card className="mb-6" data-testid="profile-verification">
      <CardContent className="flex flex-wrap items-center justify-between gap-3 p-4">
        <div className="flex items-center gap-3">
          <BadgeCheckIcon
            className={level > 0 ? 'size-6 text-primary' : 'size-6 text-muted-foreground'}
            aria-hidden
          />
          <div>
            <p className="font-semibold">Verification: level {level}</p>
            <p className="text-sm text-muted-foreground">
              {level === 0
                ? 'Verify your identity to sell more.'
                : level === 1
                  ? 'Identity verified. Verify your address to sell more.'
                  : 'Identity and address verified.'}
            </p>
          </div>
        </div>
        <Button asChild variant={level < 2 ? 'default' : 'outline'}>
          <Link href="/verification">{level < 2 ? 'Verify' : 'See limits'}</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

import { PRODUCT_NAME } from '@shared/brand';
import { durationText } from '@shared/fair-dealing-text';
import type { Capability } from '@shared/staff-roles';
import { displayName } from '@shared/user-display';
import { useQuery } from '@tanstack/react-query';
import {
  ClockIcon,
  LayersIcon,
  LayoutDashboardIcon,
  LogOutIcon,
  MessageSquareIcon,
  ShieldAlertIcon,
  StarIcon,
  TimerIcon,
  UsersIcon,
} from 'lucide-react';
import * as React from 'react';
import { Link, useLocation, useRoute, useSearch } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { StatCard } from '@/components/stat-card';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { UserAvatar } from '@/components/user-avatar';
import { BooksTab } from '@/features/admin-books/books-tab';
import { CustomerPageView } from '@/features/admin-customer/customer-page';
import { PayoutsTab } from '@/features/admin-payouts/payouts-tab';
import { RatesTab } from '@/features/admin-rates/rates-tab';
import { UploadsTab } from '@/features/admin-review/uploads-tab';
import { adminStatsQuery, reviewSummaryQuery } from '@/features/admin-shared/queries';
import { StaffTab } from '@/features/admin-staff/staff-tab';
import { ChatTab, ChatUnreadBadge } from '@/features/admin-support/chat-tab';
import { TicketsTab } from '@/features/admin-support/tickets-tab';
import { UsersTab } from '@/features/admin-users/users-tab';
import { LimitsCard } from '@/features/admin-verification/limits-card';
import { VerificationsTab } from '@/features/admin-verification/verifications-tab';
import { useAuth } from '@/lib/auth';
import { useLiveUpdates } from '@/lib/live-updates';
import { useStaffCan } from '@/lib/staff-role';

export function AdminPage() {
  const { user, isAdmin } = useAuth();
  // One customer's page (issue 43 item 15) sits in the portal's shell, under its header.
  const [onCustomer, params] = useRoute('/admin/users/:id');
  useLiveUpdates(isAdmin);
  if (!isAdmin || !user) {
    return (
      <main className="flex min-h-svh items-center justify-center bg-muted/40 px-4">
        <Card className="w-full max-w-md text-center">
          <CardContent className="grid justify-items-center gap-3 pt-8">
            <ShieldAlertIcon className="size-10 text-destructive" />
            <h1 className="text-2xl font-bold">Admin Access Required</h1>
            <p className="text-muted-foreground">You don't have permission to access this page.</p>
            <Button asChild variant="outline" className="mt-2">
              <Link href="/">Back to Dashboard</Link>
            </Button>
          </CardContent>
        </Card>
      </main>
    );
  }
  return (
    <div className="min-h-svh bg-muted/30">
      <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
          <BrandLogo text={`${PRODUCT_NAME} Admin`} />
          <div className="flex items-center gap-1.5">
            <Button variant="ghost" size="sm" asChild className="hidden sm:inline-flex">
              <Link href="/">
                <LayoutDashboardIcon /> Customer view
              </Link>
            </Button>
            <ThemeToggle />
            <span className="hidden items-center gap-2 px-1 text-sm md:flex">
              <UserAvatar user={user} className="size-8" />
              <span className="max-w-40 truncate">{displayName(user)}</span>
            </span>
            <Button variant="outline" asChild data-testid="admin-logout">
              {/* Named for screen readers on a phone, where the word is hidden. */}
              <a href="/api/logout" aria-label="Logout">
                <LogOutIcon /> <span className="hidden sm:inline">Logout</span>
              </a>
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-8 sm:px-6">
        {onCustomer && params ? (
          <CustomerPageView key={params.id} userId={params.id} />
        ) : (
          <Dashboard />
        )}
      </main>
    </div>
  );
}

/** The portal's home: its figures and its tabs. */
function Dashboard() {
  return (
    <>
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Admin Dashboard</h1>
        <p className="mt-1 text-muted-foreground">
          Review uploads, pay customers and answer support.
        </p>
      </div>
      <SummaryCards />
      <Card>
        <CardContent className="p-4 sm:p-6">
          <PortalTabs />
        </CardContent>
      </Card>
    </>
  );
}

const AnalyticsTab = React.lazy(() => import('@/features/admin-analytics/analytics-tab'));

/**
 * The portal's tabs, each shown only to a role whose capability allows it (the table in
 * src/shared/staff-roles.ts the server enforces too).
 */
const TABS: {
  value: string;
  label: React.ReactNode;
  capability: Capability;
  content: React.ReactNode;
  className?: string;
}[] = [
  { value: 'uploads', label: 'User Uploads', capability: 'cards.read', content: <UploadsTab /> },
  { value: 'payouts', label: 'Payouts', capability: 'payouts', content: <PayoutsTab /> },
  { value: 'books', label: 'Books', capability: 'books', content: <BooksTab /> },
  {
    value: 'verification',
    label: 'Verification',
    capability: 'verifications',
    content: <VerificationsTab />,
  },
  { value: 'users', label: 'Users', capability: 'users.read', content: <UsersTab /> },
  {
    value: 'chat',
    label: (
      <>
        Chat Support <ChatUnreadBadge />
      </>
    ),
    capability: 'chat',
    content: <ChatTab />,
  },
  { value: 'tickets', label: 'Tickets', capability: 'tickets', content: <TicketsTab /> },
  {
    value: 'rates',
    label: 'Rates',
    capability: 'rates.read',
    className: 'grid grid-cols-[minmax(0,1fr)] gap-6',
    content: <RatesAndLimits />,
  },
  { value: 'staff', label: 'Staff', capability: 'staff.manage', content: <StaffTab /> },
  {
    value: 'analytics',
    label: 'Analytics',
    capability: 'analytics',
    content: (
      // Charts load with the tab, not with the portal.
      <React.Suspense fallback={<Skeleton className="h-64" />}>
        <AnalyticsTab />
      </React.Suspense>
    ),
  },
];

function RatesAndLimits() {
  const can = useStaffCan();
  return (
    <>
      <RatesTab />
      {can('verifications') && <LimitsCard />}
    </>
  );
}

function PortalTabs() {
  const can = useStaffCan();
  const tabs = TABS.filter((tab) => can(tab.capability));
  // The tab is in the link (`/admin?tab=payouts`, as the appeal email sends): opened from it, and
  // written back as staff move, so Back and a shared link land on the same tab.
  const [, navigate] = useLocation();
  const asked = new URLSearchParams(useSearch()).get('tab');
  if (tabs.length === 0) return null;
  const value = tabs.some((tab) => tab.value === asked) ? asked! : tabs[0]!.value;
  return (
    <Tabs value={value} onValueChange={(tab) => navigate(`/admin?tab=${tab}`, { replace: true })}>
      {/* On a phone the tabs wrap onto rows, so all of them show (issue 43, item 16). */}
      <TabsList
        className="h-auto w-full flex-wrap justify-start sm:w-auto"
        data-testid="portal-tabs"
      >
        {tabs.map((tab) => (
          <TabsTrigger key={tab.value} value={tab.value}>
            {tab.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {tabs.map((tab) => (
        <TabsContent key={tab.value} value={tab.value} className={tab.className}>
          {tab.content}
        </TabsContent>
      ))}
    </Tabs>
  );
}

function SummaryCards() {
  const { data } = useQuery(adminStatsQuery());
  const review = useQuery(reviewSummaryQuery()).data;
  const cards: [string, number | undefined, React.ReactNode, string][] = [
    ['Total Transactions', data?.totalTransactions, <LayersIcon key="i" />, 'admin-total'],
    ['Pending Review', data?.pendingReview, <ClockIcon key="i" />, 'admin-pending'],
    ['Total Users', data?.totalUsers, <UsersIcon key="i" />, 'admin-users'],
    ['Chat Messages', data?.chatMessages, <MessageSquareIcon key="i" />, 'admin-messages'],
  ];
  return (
    <section aria-label="Summary" className="grid grid-cols-2 gap-4 md:grid-cols-3 xl:grid-cols-6">
      {cards.map(([label, value, icon, testId]) => (
        <StatCard
          key={label}
          label={label}
          value={value?.toLocaleString()}
          icon={icon}
          testId={testId}
        />
      ))}
      <StatCard
        label="Average Rating"
        value={data && <AverageRating average={data.averageRating} count={data.ratingCount} />}
        icon={<StarIcon />}
        testId="admin-rating"
      />
      {/* Pending cards waiting longer than the review target (decision 073). */}
      <StatCard
        label="Over target"
        value={
          review && (
            <>
              <span className={review.overTarget > 0 ? 'text-destructive' : undefined}>
                {review.overTarget.toLocaleString()}
              </span>
              <span className="block truncate text-xs font-normal text-muted-foreground">
                over {durationText(review.targetMinutes)}
              </span>
            </>
          )
        }
        icon={<TimerIcon />}
        testId="admin-over-target"
      />
    </section>
  );
}

/** Customers' ratings of completed cards: the average to one decimal and how many, or a dash. */
function AverageRating({ average, count }: { average: string | null; count: number }) {
  if (average === null) {
    return (
      <>
        <span aria-hidden>—</span>
        <span className="sr-only">No ratings yet</span>
      </>
    );
  }
  return (
    <>
      {average}
      <span className="text-sm font-normal text-muted-foreground"> / 5</span>
      <span className="block truncate text-xs font-normal text-muted-foreground">
        {count.toLocaleString()} {count === 1 ? 'rating' : 'ratings'}
      </span>
    </>
  );
}

import type { CurrentUser } from '@shared/auth-schemas';
import { brandName } from '@shared/brands';
import { formatMoney } from '@shared/money';
import { moneyStatus } from '@shared/statuses';
import type { Transaction } from '@shared/transactions';
import { useQuery } from '@tanstack/react-query';
import {
  ArrowRightIcon,
  CheckCircle2Icon,
  ClockIcon,
  DollarSignIcon,
  GiftIcon,
  HistoryIcon,
  HourglassIcon,
  LayersIcon,
  UploadIcon,
  WalletIcon,
} from 'lucide-react';
import * as React from 'react';
import { Link } from 'wouter';
import { RevisedOffer } from '@/components/fair/revised-offer';
import { MoneyStatusLine } from '@/components/money-status';
import { PageHeader } from '@/components/page-header';
import { PayoutHoldNotice } from '@/components/payout-hold-notice';
import { PayoutProgress } from '@/components/payout-progress';
import { RejectionReason } from '@/components/rejection-reason';
import { StatCard } from '@/components/stat-card';
import { PaymentColumnBadge, StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { BalancePanel } from '@/features/balance/balance-panel';
import { useAuth } from '@/lib/auth';
import { formatDate } from '@/lib/dates';
import { earningsQuery, recentTransactionsQuery, statsQuery } from '@/lib/queries';

const NEW_ACCOUNT_MS = 24 * 60 * 60 * 1000;

/** 'Welcome back' only to someone who has been here before: an account older than a day. */
function greeting(user: CurrentUser | null) {
  if (!user?.firstName) return 'Dashboard';
  const isNew = Date.now() - new Date(user.createdAt).getTime() < NEW_ACCOUNT_MS;
  return `${isNew ? 'Welcome' : 'Welcome back'}, ${user.firstName}`;
}

export function DashboardPage() {
  const { user } = useAuth();
  const stats = useQuery(statsQuery());
  const recent = useQuery(recentTransactionsQuery());
  const s = stats.data;

  return (
    <div className="grid gap-8">
      <PageHeader
        title={greeting(user)}
        description="Your gift card sales at a glance."
        backHref={null}
      />

      <section aria-label="Stats" className="grid grid-cols-2 gap-4 lg:grid-cols-5">
        <StatCard
          label="Total Submitted"
          value={s?.totalSubmitted}
          icon={<LayersIcon />}
          testId="stat-total"
        />
        <StatCard
          label="Pending Review"
          value={s?.pending}
          icon={<ClockIcon />}
          testId="stat-pending"
        />
        <StatCard
          label="Completed"
          value={s?.completed}
          icon={<CheckCircle2Icon />}
          testId="stat-completed"
        />
        {/* Earned is money paid (sent or confirmed); awaiting is approved, not paid yet (060). */}
        <StatCard
          label="Awaiting Payment"
          value={s ? formatMoney(s.awaitingPayment) : undefined}
          icon={<HourglassIcon />}
          testId="stat-awaiting"
        />
        <StatCard
          label="Total Earned"
          value={s ? formatMoney(s.totalEarned) : undefined}
          icon={<DollarSignIcon />}
          testId="stat-earned"
          highlight
          className="max-lg:col-span-2"
        />
      </section>

      <BalancePanel />

      <section aria-labelledby="quick-actions">
        <h2 id="quick-actions" className="mb-3 text-lg font-semibold">
          Quick Actions
        </h2>
        <div className="grid gap-4 sm:grid-cols-3">
          <QuickAction
            href="/upload"
            icon={<UploadIcon />}
            title="Upload Card"
            text="Sell a gift card now"
          />
          <QuickAction
            href="/history"
            icon={<HistoryIcon />}
            title="View History"
            text="Follow every card"
          />
          <QuickAction
            href="/profile?tab=payments"
            icon={<WalletIcon />}
            title="Payment Methods"
            text="Where you get paid"
          />
        </div>
      </section>

      <Card>
        <CardHeader className="flex-row items-center justify-between">
          <CardTitle>Recent Transactions</CardTitle>
          <Button variant="ghost" size="sm" asChild>
            <Link href="/history">
              View All <ArrowRightIcon />
            </Link>
          </Button>
        </CardHeader>
        <CardContent>
          {recent.isLoading ? (
            <div className="grid gap-3">
              <Skeleton className="h-16" />
              <Skeleton className="h-16" />
            </div>
          ) : recent.data?.length ? (
            <ul className="grid grid-cols-1 gap-3" data-testid="recent-transactions">
              {recent.data.map((t) => (
                <RecentItem key={t.id} transaction={t} />
              ))}
            </ul>
          ) : (
            <div className="py-10 text-center" data-testid="empty-transactions">
              <GiftIcon className="mx-auto size-10 text-muted-foreground" />
              <p className="mt-3 font-medium">No transactions yet</p>
              <p className="mt-1 text-sm text-muted-foreground">
                Upload your first gift card and see what it is worth.
              </p>
              <Button asChild className="mt-4">
                <Link href="/upload">
                  <UploadIcon /> Upload Gift Card
                </Link>
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
      {/* Last on the page, so that its arrival moves nothing the visitor is looking at. */}
      <LazyEarnings />
    </div>
  );
}

function QuickAction({
  href,
  icon,
  title,
  text,
}: {
  href: string;
  icon: React.ReactNode;
  title: string;
  text: string;
}) {
  return (
    <Link
      href={href}
      className="group flex items-center gap-4 rounded-xl border bg-card p-4 shadow-sm transition-colors hover:border-primary/40 hover:bg-accent/40"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground [&_svg]:size-5">
        {icon}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold">{title}</span>
        <span className="block text-sm text-muted-foreground">{text}</span>
      </span>
      <ArrowRightIcon className="size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5" />
    </Link>
  );
}

function RecentItem({ transaction: t }: { transaction: Transaction }) {
  return (
    <li className="rounded-lg border p-4" data-testid="recent-transaction">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold">{brandName(t.cardType)}</p>
          <p className="text-sm text-muted-foreground">{formatDate(t.createdAt)}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={t.status} />
          <PaymentColumnBadge status={t.status} paymentStatus={t.paymentStatus} />
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <span>
          <span className="text-muted-foreground">Card value </span>
          <span className="font-medium tabular-nums">{formatMoney(t.cardValue)}</span>
        </span>
        <PayoutAmount transaction={t} />
      </div>
      <MoneyStatusLine transaction={t} amount={false} className="mt-2" />
      <PayoutProgress transaction={t} className="mt-3" />
      <PayoutHoldNotice until={t.payoutHoldUntil} reason={t.payoutHoldReason} className="mt-3" />
      {t.offer?.status === 'pending' && <RevisedOffer transaction={t} className="mt-3" />}
      <RejectionReason transaction={t} className="mt-3" />
      {t.adminNotes && (
        <p className="mt-3 rounded-md bg-muted/60 px-3 py-2 text-sm" data-testid="admin-notes">
          <span className="font-medium">Notes: </span>
          {t.adminNotes}
        </p>
      )}
    </li>
  );
}

/** The payout amount of a recent item: the one to come or paid, or "No payout" when rejected. */
function PayoutAmount({ transaction: t }: { transaction: Transaction }) {
  const { key } = moneyStatus(t.status, t.paymentStatus);
  if (t.offer?.status === 'pending') {
    return (
      <span data-testid="recent-payout">
        <span className="text-muted-foreground">Revised offer </span>
        <span className="font-semibold tabular-nums">{formatMoney(t.offer.amount)}</span>
      </span>
    );
  }
  if (key === 'rejected') {
    return (
      <span data-testid="recent-payout">
        <span className="text-muted-foreground">Payout </span>
        <span className="font-semibold">No payout</span>
      </span>
    );
  }
  return (
    <span data-testid="recent-payout">
      <span className="text-muted-foreground">
        {key === 'paid' ? 'Payout ' : key === 'approved' ? 'Payout to come ' : 'Expected payout '}
      </span>
      <span className="font-semibold tabular-nums text-primary">
        {formatMoney(t.paymentAmount ?? t.expectedPayout)}
      </span>
    </span>
  );
}

const EarningsChart = React.lazy(() => import('./earnings-chart'));

/**
 * The earnings chart is asked for only when the bottom of the dashboard comes into view after the
 * page has loaded, and the chart library loads only when something was paid: neither weighs on
 * the dashboard's first load (its Lighthouse score, issue 24).
 */
function LazyEarnings() {
  const spot = React.useRef<HTMLDivElement>(null);
  const [near, setNear] = React.useState(false);
  React.useEffect(() => {
    const element = spot.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setNear(true);
        observer.disconnect();
      }
    });
    // Watched only once the page has loaded and the browser is idle: until then the short,
    // still-loading page would show the spot at once, and its request would compete with the
    // first paint.
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 500));
    let handle: number | undefined;
    const watch = () => {
      handle = idle(() => observer.observe(element));
    };
    if (document.readyState === 'complete') watch();
    else window.addEventListener('load', watch, { once: true });
    return () => {
      window.removeEventListener('load', watch);
      if (handle !== undefined) (window.cancelIdleCallback ?? window.clearTimeout)(handle);
      observer.disconnect();
    };
  }, []);
  const { data } = useQuery({ ...earningsQuery(), enabled: near });
  const paid = data?.months.some((m) => m.paid !== '0.00');
  return (
    <div ref={spot}>
      {data && paid && (
        <React.Suspense fallback={null}>
          <EarningsChart earnings={data} />
        </React.Suspense>
      )}
    </div>
  );
}

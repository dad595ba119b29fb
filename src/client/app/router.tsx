import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AdminLoginPage } from '@/features/auth/admin-login-page';
import { LandingPage } from '@/features/landing/landing-page';
import { PrivacyPage } from '@/features/legal/privacy-page';
import { TermsPage } from '@/features/legal/terms-page';
import { NotFoundPage } from '@/features/not-found/not-found-page';
import { useAuth } from '@/lib/auth';
import { AppLayout } from './app-layout';

/** Signed-in pages load on demand, so the landing page does not carry the whole app. */
const lazyPage = <K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K) =>
  React.lazy(async () => ({ default: (await load())[name] }));

const AdminPage = lazyPage(() => import('@/features/admin/admin-page'), 'AdminPage');
const ChatPage = lazyPage(() => import('@/features/chat/chat-page'), 'ChatPage');
const DashboardPage = lazyPage(
  () => import('@/features/dashboard/dashboard-page'),
  'DashboardPage',
);
const HistoryPage = lazyPage(() => import('@/features/history/history-page'), 'HistoryPage');
const PaymentMethodsPage = lazyPage(
  () => import('@/features/payment-methods/payment-methods-page'),
  'PaymentMethodsPage',
);
const ProfilePage = lazyPage(() => import('@/features/profile/profile-page'), 'ProfilePage');
const SupportPage = lazyPage(() => import('@/features/support/support-page'), 'SupportPage');
const UploadPage = lazyPage(() => import('@/features/upload/upload-page'), 'UploadPage');

function Spinner() {
  return (
    <div className="flex min-h-[50svh] items-center justify-center" aria-busy="true">
      <Loader2Icon className="size-6 animate-spin text-muted-foreground" aria-label="Loading" />
    </div>
  );
}

export function Router() {
  const { user, isLoading } = useAuth();

  if (isLoading) return <Spinner />;

  if (!user) {
    // Signed-out visitors: only these routes exist; any other path shows the landing page.
    return (
      <Switch>
        <Route path="/admin/login" component={AdminLoginPage} />
        <Route path="/terms" component={TermsPage} />
        <Route path="/privacy" component={PrivacyPage} />
        <Route component={LandingPage} />
      </Switch>
    );
  }

  return (
    <React.Suspense fallback={<Spinner />}>
      <Switch>
        <Route path="/admin" component={AdminPage} />
        <Route path="/admin/login">
          <Redirect to="/admin" replace />
        </Route>
        <Route path="/dashboard">
          <Redirect to="/" replace />
        </Route>
        <Route>
          <AppLayout>
            <React.Suspense fallback={<Spinner />}>
              <Switch>
                <Route path="/" component={DashboardPage} />
                <Route path="/upload" component={UploadPage} />
                <Route path="/history" component={HistoryPage} />
                <Route path="/payment-methods" component={PaymentMethodsPage} />
                <Route path="/chat" component={ChatPage} />
                <Route path="/support" component={SupportPage} />
                <Route path="/profile" component={ProfilePage} />
                <Route path="/terms" component={TermsPage} />
                <Route path="/privacy" component={PrivacyPage} />
                <Route component={NotFoundPage} />
              </Switch>
            </React.Suspense>
          </AppLayout>
        </Route>
      </Switch>
    </React.Suspense>
  );
}

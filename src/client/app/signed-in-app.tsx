import { QueryClientProvider } from '@tanstack/react-query';
import * as React from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { TooltipProvider } from '@/components/ui/tooltip';
// The home page comes with the shell, one round trip sooner than the pages loaded on demand.
import { DashboardPage } from '@/features/dashboard/dashboard-page';
import { NotFoundPage } from '@/features/not-found/not-found-page';
import { adminReturnPath } from '@/lib/admin-return';
import { queryClient } from '@/lib/query-client';
import { useSignOutsFromOtherTabs } from '@/lib/session-channel';
import { ACCOUNT_PAGE_ROUTES } from './account-pages';
import { AppLayout } from './app-layout';
import { lazyPage } from './lazy-page';
import { Spinner } from './spinner';

const AdminPage = lazyPage(() => import('@/features/admin/admin-page'), 'AdminPage');
const ChatPage = lazyPage(() => import('@/features/chat/chat-page'), 'ChatPage');
const HistoryPage = lazyPage(() => import('@/features/history/history-page'), 'HistoryPage');
const PaymentMethodsPage = lazyPage(
  () => import('@/features/payment-methods/payment-methods-page'),
  'PaymentMethodsPage',
);
const PrivacyPage = lazyPage(() => import('@/features/legal/privacy-page'), 'PrivacyPage');
const ProfilePage = lazyPage(() => import('@/features/profile/profile-page'), 'ProfilePage');
const StatementPage = lazyPage(() => import('@/features/balance/statement-page'), 'StatementPage');
const SupportPage = lazyPage(() => import('@/features/support/support-page'), 'SupportPage');
const TermsPage = lazyPage(() => import('@/features/legal/terms-page'), 'TermsPage');
const UploadPage = lazyPage(() => import('@/features/upload/upload-page'), 'UploadPage');
const VerificationPage = lazyPage(
  () => import('@/features/verification/verification-page'),
  'VerificationPage',
);

/** Everything behind sign-in: the query cache, tooltips, the shell and its pages. */
export function SignedInApp() {
  useSignOutsFromOtherTabs();
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <React.Suspense fallback={<Spinner />}>
          <Switch>
            <Route path="/admin" component={AdminPage} />
            <Route path="/admin/users/:id" component={AdminPage} />
            {ACCOUNT_PAGE_ROUTES}
            <Route path="/admin/login">
              {/* Already signed in: straight to the link the sign-in was to return to. */}
              <Redirect to={adminReturnPath(window.location.search)} replace />
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
                    <Route path="/statement" component={StatementPage} />
                    <Route path="/payment-methods" component={PaymentMethodsPage} />
                    <Route path="/chat" component={ChatPage} />
                    <Route path="/support" component={SupportPage} />
                    <Route path="/profile" component={ProfilePage} />
                    <Route path="/verification" component={VerificationPage} />
                    <Route path="/terms" component={TermsPage} />
                    <Route path="/privacy" component={PrivacyPage} />
                    <Route component={NotFoundPage} />
                  </Switch>
                </React.Suspense>
              </AppLayout>
            </Route>
          </Switch>
        </React.Suspense>
      </TooltipProvider>
    </QueryClientProvider>
  );
}

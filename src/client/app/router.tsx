import * as React from 'react';
import { Route, Switch } from 'wouter';
import { useAuth } from '@/lib/auth';
import { ACCOUNT_PAGE_ROUTES } from './account-pages';
import { lazyPage } from './lazy-page';
import { Spinner } from './spinner';

const loadSignedInApp = () => import('./signed-in-app');
const SignedInApp = lazyPage(loadSignedInApp, 'SignedInApp');
// The landing page is a chunk of its own, so a signed-in visit does not carry it; theme-init.js
// fetches it beside the entry script for a visitor who is not signed in (finish-client-build).
const LandingPage = lazyPage(() => import('@/features/landing/landing-page'), 'LandingPage');
const AdminLoginPage = lazyPage(() => import('@/features/auth/admin-login-page'), 'AdminLoginPage');
const PrivacyPage = lazyPage(() => import('@/features/legal/privacy-page'), 'PrivacyPage');
const TermsPage = lazyPage(() => import('@/features/legal/terms-page'), 'TermsPage');

export function Router() {
  const { user, isLoading } = useAuth();
  // A visitor the hint says is signed in: fetch the shell while the current user is asked for.
  if (isLoading) void loadSignedInApp();
  if (isLoading) return <Spinner />;

  if (!user) {
    // Signed-out visitors: only these routes exist; any other path shows the landing page.
    return (
      <React.Suspense fallback={<Spinner />}>
        <Switch>
          <Route path="/admin/login" component={AdminLoginPage} />
          {ACCOUNT_PAGE_ROUTES}
          <Route path="/terms">
            <main>
              <TermsPage />
            </main>
          </Route>
          <Route path="/privacy">
            <main>
              <PrivacyPage />
            </main>
          </Route>
          <Route component={LandingPage} />
        </Switch>
      </React.Suspense>
    );
  }

  return (
    <React.Suspense fallback={<Spinner />}>
      <SignedInApp />
    </React.Suspense>
  );
}

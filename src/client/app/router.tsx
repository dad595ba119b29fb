import * as React from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { adminLoginPath } from '@/lib/admin-return';
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
          {/* A staff link (an email's, a bookmark's) signed out: the staff sign-in, then back. */}
          <Route path="/admin" component={ToAdminLogin} />
          <Route path="/admin/*" component={ToAdminLogin} />
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

/**
 * A signed-out visit to any `/admin…` link goes to the staff sign-in, which comes back to the link
 * (issue 43, item 10); the customer landing page, where staff credentials fail, is never shown.
 */
function ToAdminLogin() {
  return (
    <Redirect to={adminLoginPath(window.location.pathname + window.location.search)} replace />
  );
}

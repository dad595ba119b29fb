import { Loader2Icon } from 'lucide-react';
import { Redirect, Route, Switch } from 'wouter';
import { AdminPage } from '@/features/admin/admin-page';
import { AdminLoginPage } from '@/features/auth/admin-login-page';
import { ChatPage } from '@/features/chat/chat-page';
import { DashboardPage } from '@/features/dashboard/dashboard-page';
import { HistoryPage } from '@/features/history/history-page';
import { LandingPage } from '@/features/landing/landing-page';
import { PrivacyPage } from '@/features/legal/privacy-page';
import { TermsPage } from '@/features/legal/terms-page';
import { NotFoundPage } from '@/features/not-found/not-found-page';
import { PaymentMethodsPage } from '@/features/payment-methods/payment-methods-page';
import { ProfilePage } from '@/features/profile/profile-page';
import { SupportPage } from '@/features/support/support-page';
import { UploadPage } from '@/features/upload/upload-page';
import { useAuth } from '@/lib/auth';
import { AppLayout } from './app-layout';

export function Router() {
  const { user, isLoading } = useAuth();

  if (isLoading) {
    return (
      <div className="flex min-h-svh items-center justify-center" aria-busy="true">
        <Loader2Icon className="size-6 animate-spin text-muted-foreground" aria-label="Loading" />
      </div>
    );
  }

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
        </AppLayout>
      </Route>
    </Switch>
  );
}

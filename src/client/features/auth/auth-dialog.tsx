import { PRODUCT_NAME } from '@shared/brand';
import * as React from 'react';
import { useLocation } from 'wouter';
import { DialogFrame } from '@/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { takeReturnPath } from '@/lib/drafts';
import { needsSignIn } from '@/lib/signed-in-paths';
import { ForgotPasswordForm, SignInForm, SignUpForm } from './auth-forms';

export type AuthTab = 'signin' | 'signup';

export function AuthDialog({
  open,
  tab,
  onOpenChange,
  onTabChange,
}: {
  open: boolean;
  tab: AuthTab;
  onOpenChange: (open: boolean) => void;
  onTabChange: (tab: AuthTab) => void;
}) {
  const [location, navigate] = useLocation();
  const [forgot, setForgot] = React.useState(false);
  // Signed in on a page that needs it (a link from an email): that page, with its query, opens.
  // After a lost session, back to the page it left, where its draft waits (issue 43, item 18).
  const done = () => {
    onOpenChange(false);
    const back = takeReturnPath(needsSignIn);
    if (back) navigate(back);
    else if (!needsSignIn(location)) navigate('/');
  };
  const changeOpen = (next: boolean) => {
    if (!next) setForgot(false);
    onOpenChange(next);
  };
  return (
    <DialogFrame
      open={open}
      onOpenChange={changeOpen}
      className="max-w-md"
      data-testid="auth-dialog"
      title={
        forgot ? 'Reset your password' : tab === 'signin' ? 'Welcome back' : `Join ${PRODUCT_NAME}`
      }
      description={
        forgot
          ? 'We will email you a link to choose a new one.'
          : tab === 'signin'
            ? 'Sign in to sell gift cards and follow your payouts.'
            : 'Create a free account and get paid for unused gift cards.'
      }
    >
      {forgot ? (
        <ForgotPasswordForm onBack={() => setForgot(false)} />
      ) : (
        <Tabs value={tab} onValueChange={(v) => onTabChange(v as AuthTab)}>
          <TabsList className="grid w-full grid-cols-2">
            <TabsTrigger value="signin">Sign In</TabsTrigger>
            <TabsTrigger value="signup">Sign Up</TabsTrigger>
          </TabsList>
          <TabsContent value="signin">
            <SignInForm onSuccess={done} onForgot={() => setForgot(true)} />
          </TabsContent>
          <TabsContent value="signup">
            <SignUpForm onSuccess={done} />
          </TabsContent>
        </Tabs>
      )}
    </DialogFrame>
  );
}

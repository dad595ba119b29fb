import { PRODUCT_NAME } from '@shared/brand';
import { LogOutIcon, ShieldAlertIcon } from 'lucide-react';
import { Link } from 'wouter';
import { ThemeToggle } from '@/app/theme-toggle';
import { BrandLogo } from '@/components/brand-logo';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { UserAvatar } from '@/components/user-avatar';
import { useAuth } from '@/lib/auth';

export function AdminPage() {
  const { user, isAdmin } = useAuth();
  if (!isAdmin) {
    return (
      <div className="flex min-h-svh items-center justify-center bg-muted/40 px-4">
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
      </div>
    );
  }
  return (
    <div className="min-h-svh bg-muted/30">
      <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4 sm:px-6">
          <div className="flex items-center gap-3">
            <BrandLogo text={`${PRODUCT_NAME} Admin`} />
          </div>
          <div className="flex items-center gap-1.5">
            <ThemeToggle />
            {user && <UserAvatar user={user} className="size-8" />}
            <Button variant="outline" asChild data-testid="admin-logout">
              <a href="/api/logout">
                <LogOutIcon /> <span className="hidden sm:inline">Logout</span>
              </a>
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Admin Dashboard</h1>
        <p className="mt-1 text-muted-foreground">
          Review uploads, pay customers and answer support.
        </p>
      </main>
    </div>
  );
}

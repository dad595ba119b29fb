import { ArrowLeftIcon, ShieldCheckIcon } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { ThemeToggle } from '@/components/theme-toggle';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/lib/toast';
import { SignInForm } from './auth-forms';

export function AdminLoginPage() {
  const [, navigate] = useLocation();
  return (
    <main className="relative flex min-h-svh items-center justify-center bg-muted/40 px-4 py-12">
      <ThemeToggle className="absolute right-4 top-4" />
      <Card className="w-full max-w-sm">
        <CardHeader className="items-center text-center">
          <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <ShieldCheckIcon className="size-6" />
          </div>
          <CardTitle as="h1" className="text-2xl">
            Admin Portal
          </CardTitle>
          <CardDescription>Staff sign-in. Every action here is recorded.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <SignInForm
            url="/api/admin/signin"
            onSuccess={() => {
              toast({ title: 'Welcome back!', description: 'Successfully signed in as admin' });
              navigate('/admin');
            }}
          />
          <Link
            href="/"
            className="inline-flex items-center justify-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
          >
            <ArrowLeftIcon className="size-4" /> Back to User Login
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}

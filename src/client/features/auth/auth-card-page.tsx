import { CheckCircle2Icon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'wouter';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** A page of its own around one card: the admin sign-in, a password reset, an email check. */
export function AuthCardPage({
  icon,
  title,
  description,
  children,
  testId,
}: {
  icon: React.ReactNode;
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
  testId?: string;
}) {
  return (
    <main
      className="relative flex min-h-svh items-center justify-center bg-muted/40 px-4 py-12"
      data-testid={testId}
    >
      <ThemeToggle className="absolute right-4 top-4" />
      <Card className="w-full max-w-sm">
        <CardHeader className="items-center text-center">
          <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary [&_svg]:size-6">
            {icon}
          </div>
          <CardTitle as="h1" className="text-2xl">
            {title}
          </CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
      </Card>
    </main>
  );
}

/** The page after a link did its work: what happened, and one way on (sign in, most often). */
export function AuthDonePage({
  title,
  testId,
  children,
  href,
  action,
}: {
  title: string;
  testId: string;
  children: React.ReactNode;
  href: string;
  action: string;
}) {
  return (
    <AuthCardPage icon={<CheckCircle2Icon />} title={title} testId={testId}>
      <p className="text-center text-sm text-muted-foreground" role="status">
        {children}
      </p>
      <Button asChild className="w-full">
        <Link href={href}>{action}</Link>
      </Button>
    </AuthCardPage>
  );
}

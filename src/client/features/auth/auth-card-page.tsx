import type * as React from 'react';
import { ThemeToggle } from '@/components/theme-toggle';
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

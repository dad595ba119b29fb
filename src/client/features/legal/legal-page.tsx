import { ArrowLeftIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';

export interface LegalSection {
  title: string;
  body: React.ReactNode;
}

export function LegalPage({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: React.ReactNode;
  sections: LegalSection[];
}) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6">
      <Button variant="outline" asChild className="mb-8">
        <Link href="/">
          <ArrowLeftIcon /> Back to Home
        </Link>
      </Button>
      <article className="rounded-xl border bg-card p-6 shadow-sm sm:p-10">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">Last updated: {updated}</p>
        <div className="mt-6 leading-relaxed text-muted-foreground">{intro}</div>
        <ol className="mt-8 grid gap-8">
          {sections.map((section, index) => (
            <li key={section.title}>
              <h2 className="text-lg font-semibold text-foreground">
                {index + 1}. {section.title}
              </h2>
              <div className="mt-2 grid gap-3 text-[0.95rem] leading-relaxed text-muted-foreground [&_ul]:grid [&_ul]:list-disc [&_ul]:gap-1.5 [&_ul]:pl-5">
                {section.body}
              </div>
            </li>
          ))}
        </ol>
      </article>
    </div>
  );
}

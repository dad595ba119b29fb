import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { settled } from './layout';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Runs axe-core (the package's own build, injected into the page) over the whole document and
 * describes every finding of any impact; an empty list means none. Animations are let settle
 * first, so colours are read as a person sees them.
 */
export async function axeFindings(page: Page): Promise<string[]> {
  await settled(page);
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated, not added as a script tag: the app's Content-Security-Policy allows no inline script.
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: object) => Promise<{ violations: unknown[] }> };
    };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return (violations as Violation[]).map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help} -> ${v.nodes
        .slice(0, 3)
        .map(
          (n) =>
            `${JSON.stringify(n.target)} ${n.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`,
        )
        .join(' | ')}`,
  );
}

/** Fails with the findings, naming the page state they were found in. */
export async function expectNoAxeFindings(page: Page, where: string) {
  const findings = await axeFindings(page);
  if (findings.length > 0) {
    throw new Error(`axe found ${findings.length} problem(s) on ${where}:\n${findings.join('\n')}`);
  }
}

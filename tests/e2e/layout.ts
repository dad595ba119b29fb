import type { Page } from 'playwright-core';

/**
 * Everything on the page can be seen or scrolled to: no element reaches past the viewport unless
 * a horizontally scrolling box inside the viewport holds it, and no box hides part of its content
 * without an ellipsis. Returns a description of each offender (empty when all is well).
 */
export async function findCutOff(page: Page): Promise<string[]> {
  await settled(page);
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const testId = el.getAttribute('data-testid');
      const text = (el.textContent ?? '').trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}${id}${testId ? ` data-testid=${testId}` : ''}> "${text}"`;
    };
    const scrollsSideways = (el: Element) => {
      const { overflowX } = getComputedStyle(el);
      return overflowX === 'auto' || overflowX === 'scroll';
    };
    const problems: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1) continue; // hidden or visually hidden
      const style = getComputedStyle(el);
      // Not seen: hidden, or a transparent stand-in such as a radio group's native input.
      if (style.visibility === 'hidden' || style.opacity === '0') continue;
      if (rect.right > width + 1 || rect.left < -1) {
        let holder = el.parentElement;
        while (holder && !scrollsSideways(holder)) holder = holder.parentElement;
        const held =
          holder !== null &&
          holder !== document.documentElement &&
          holder.getBoundingClientRect().right <= width + 1 &&
          holder.getBoundingClientRect().left >= -1;
        if (!held) problems.push(`past the viewport: ${describe(el)}`);
      }
      // A text box scrolls its own text by design.
      const isTextBox = el.matches('input, textarea, select');
      const clips = !isTextBox && (style.overflowX === 'hidden' || style.overflowX === 'clip');
      if (clips && el.scrollWidth > el.clientWidth + 1 && style.textOverflow !== 'ellipsis') {
        problems.push(`clipped: ${describe(el)}`);
      }
    }
    return problems;
  });
}

/** Waits for opening animations (not endless ones, like a spinner) to finish. */
export function settled(page: Page) {
  return page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
}

/**
 * The first text containing `text` inside `within` (a selector) is shown whole: not cut by any
 * box it sits in, with or without an ellipsis, and not past the viewport.
 */
export function isShownWhole(page: Page, text: string, within = 'body'): Promise<boolean> {
  return page.evaluate(
    ([wanted, root]) => {
      const walker = document.createTreeWalker(
        document.querySelector(root!)!,
        NodeFilter.SHOW_TEXT,
      );
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.includes(wanted!)) continue;
        for (let el = node.parentElement; el && el !== document.body; el = el.parentElement) {
          const style = getComputedStyle(el);
          if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) return false;
          const rect = el.getBoundingClientRect();
          if (rect.right > document.documentElement.clientWidth + 1) return false;
        }
        return true;
      }
      return false;
    },
    [text, within],
  );
}

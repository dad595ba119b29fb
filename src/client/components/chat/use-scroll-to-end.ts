import * as React from 'react';

const NEAR_END_PX = 48;

/**
 * Keeps a scrolling thread at its newest message: it opens there (and again when `threadKey`
 * changes to another conversation), follows new messages, and stays there while images above
 * finish loading and grow the thread. Someone who scrolled up to read is left where they are.
 */
export function useScrollToEnd(count: number, threadKey?: string | null) {
  const ref = React.useRef<HTMLDivElement>(null);
  const pinned = React.useRef(true);

  // A new thread opens at its end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: threadKey is the trigger.
  React.useLayoutEffect(() => {
    pinned.current = true;
  }, [threadKey]);

  React.useLayoutEffect(() => {
    const box = ref.current;
    if (box && count > 0 && pinned.current) box.scrollTop = box.scrollHeight;
  }, [count]);

  React.useEffect(() => {
    const box = ref.current;
    if (!box) return;
    // Growth below the reader (a photo loading) must not move them: no scroll anchoring.
    box.style.overflowAnchor = 'none';
    let last = box.scrollTop;
    const onScroll = () => {
      // Pinned again at the end; unpinned only when the reader scrolls up, never because the
      // thread grew under them.
      if (box.scrollHeight - box.scrollTop - box.clientHeight < NEAR_END_PX) pinned.current = true;
      else if (box.scrollTop < last) pinned.current = false;
      last = box.scrollTop;
    };
    const follow = () => {
      if (pinned.current) box.scrollTop = box.scrollHeight;
    };
    const observer = new ResizeObserver(follow);
    for (const child of box.children) observer.observe(child);
    const mutations = new MutationObserver(() => {
      for (const child of box.children) observer.observe(child);
      follow();
    });
    mutations.observe(box, { childList: true });
    box.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      mutations.disconnect();
      box.removeEventListener('scroll', onScroll);
    };
  }, []);
  return ref;
}

import * as React from 'react';

/** Keeps a scrolling list at its newest item whenever the count of items grows. */
export function useScrollToEnd(count: number) {
  const ref = React.useRef<HTMLDivElement>(null);
  React.useEffect(() => {
    if (count > 0 && ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [count]);
  return ref;
}

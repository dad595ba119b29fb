import * as React from 'react';

/** A page loaded on demand, so the landing page does not carry the rest of the app. */
export const lazyPage = <K extends string>(
  load: () => Promise<Record<K, React.ComponentType>>,
  name: K,
) => React.lazy(async () => ({ default: (await load())[name] }));

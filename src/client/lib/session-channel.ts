import * as React from 'react';
import { handleUnauthorized } from './unauthorized';

/**
 * Tabs hear a sign-out made in another tab (issue 43, item 18): the tab that signs out says so on
 * a BroadcastChannel, and every other tab of the site treats it as a lost session at once (the
 * toast, then the sign-in, then back to its page with its drafts) instead of failing on the next
 * request it sends.
 */
const CHANNEL = 'cardbridge-session';

export function announceSignOut() {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('signed-out');
  channel.close();
}

/** While mounted (the signed-in app), a sign-out in another tab signs this one out too. */
export function useSignOutsFromOtherTabs() {
  React.useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event) => {
      if (event.data === 'signed-out') handleUnauthorized();
    };
    return () => channel.close();
  }, []);
}

import { EVENTS_PATH, TOPIC_URLS } from '@shared/live';
import { useEffect } from 'react';
import { refreshCurrentUser } from './auth';
import { queryClient } from './query-client';

const CURRENT_USER_PATH = '/api/auth/user';

/** The queries each topic's change makes stale (their keys start with these paths). */
const REFETCH = TOPIC_URLS;

/** After the server refused the stream (not a network blip, which EventSource retries itself). */
const RETRY_MS = 15_000;

/**
 * Listens to GET /api/events while signed in and refetches exactly the queries whose topic
 * changed, so a staff decision shows the moment it is saved. The spec's polls keep running
 * underneath as the fallback.
 */
export function useLiveUpdates(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    // Lists and summaries refetch; one record opened for editing (keyed by its id, like a review
    // dialog) is never replaced under the person editing it: their save says if it changed.
    const refetch = (paths: readonly string[]) => {
      for (const path of paths) {
        if (path === CURRENT_USER_PATH) void refreshCurrentUser();
        void queryClient.invalidateQueries({
          queryKey: [path],
          predicate: (query) => typeof query.queryKey[1] !== 'string',
        });
      }
    };
    const open = () => {
      source = new EventSource(EVENTS_PATH);
      for (const [topic, paths] of Object.entries(REFETCH)) {
        source.addEventListener(topic, () => refetch(paths));
      }
      source.addEventListener('resync', () => refetch(Object.values(REFETCH).flat()));
      source.onerror = () => {
        if (source?.readyState === EventSource.CLOSED) retry = setTimeout(open, RETRY_MS);
      };
    };
    open();
    return () => {
      clearTimeout(retry);
      source?.close();
    };
  }, [signedIn]);
}

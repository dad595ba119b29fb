import type { CurrentUser } from '@shared/auth-schemas';
import * as React from 'react';

/**
 * The current user, kept in a small store rather than the query cache so the public pages need
 * neither TanStack Query nor the answer of GET /api/auth/session to paint. A `signed-in` hint in
 * local storage says whether to wait for that answer: a visitor who was not signed in sees the
 * landing page at once, a signed-in one a spinner until the shell can show.
 */
const HINT_KEY = 'signed-in';
/** Who is signed in, answered 200 with `{ user: null }` for nobody: no failed request to log. */
const SESSION_PATH = '/api/auth/session';

interface AuthState {
  user: CurrentUser | null;
  /** GET /api/auth/session has answered (or failed) at least once. */
  known: boolean;
}

let state: AuthState = { user: null, known: false };
const listeners = new Set<() => void>();
let inFlight: Promise<CurrentUser | null> | null = null;

function readHint() {
  try {
    return localStorage.getItem(HINT_KEY) === '1';
  } catch {
    return false;
  }
}

function writeHint(signedIn: boolean) {
  try {
    if (signedIn) localStorage.setItem(HINT_KEY, '1');
    else localStorage.removeItem(HINT_KEY);
  } catch {}
}

/**
 * Set when the account signed out on purpose (logout, deletion): requests of the pages still on
 * screen that answer 401 meanwhile are expected, not a session that ran out. Cleared by the next
 * sign-in.
 */
let signedOutOnPurpose = false;
export const isSignedOutOnPurpose = () => signedOutOnPurpose;

export function setCurrentUser(user: CurrentUser | null) {
  if (user) signedOutOnPurpose = false;
  state = { user, known: true };
  writeHint(user !== null);
  for (const listener of listeners) listener();
}

/**
 * The request public/theme-init.js started before this code loaded: the page's first ask only
 * (a later one, after a sign-in, must not read a stale answer).
 */
let firstAsk = true;
function takeEarlyRequest(): Promise<Response> | undefined {
  const page = window as { __currentUser?: Promise<Response> };
  const early = firstAsk ? page.__currentUser : undefined;
  firstAsk = false;
  delete page.__currentUser;
  return early;
}

/**
 * Asks the server who is signed in; nobody (or any failure: the call is not retried, spec
 * section 4) is null. Concurrent calls share one request.
 */
export function refreshCurrentUser(): Promise<CurrentUser | null> {
  inFlight ??= (async () => {
    try {
      const res = await (takeEarlyRequest() ??
        fetch(SESSION_PATH, { credentials: 'include', cache: 'no-store' }));
      const user = res.ok ? ((await res.json()) as { user: CurrentUser | null }).user : null;
      if (!res.ok) await res.text(); // read the body to the end, so the request completes
      setCurrentUser(user);
      return user;
    } catch {
      setCurrentUser(null);
      return null;
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}

/** The signed-in user as last known (outside React: after a sign-in's refresh). */
export const currentUser = () => state.user;

/** Forgets the user and the hint (after a sign-out or a 401). */
export const forgetCurrentUser = () => setCurrentUser(null);

/** The account signed out (logout, deletion): forgotten, and its pages' 401s are expected. */
export function signedOut() {
  signedOutOnPurpose = true;
  forgetCurrentUser();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const snapshot = () => state;

let started = false;
/** The first read starts the request: the page never waits for it unless the hint says so. */
function start() {
  if (started) return;
  started = true;
  void refreshCurrentUser();
}

export function useAuth() {
  start();
  // Changes arrive as a transition, not through useSyncExternalStore, which renders at once: the
  // whole signed-in shell then builds in slices instead of one long task.
  const [{ user, known }, setState] = React.useState(snapshot);
  React.useEffect(() => {
    const update = () => React.startTransition(() => setState(snapshot()));
    update();
    return subscribe(update);
  }, []);
  const isLoading = !known && readHint();
  return { user, known, isLoading, isAuthenticated: !!user, isAdmin: !!user?.isAdmin };
}

/** After a 401 the session is gone: the next load need not wait for the current-user call. */
export const clearSignedInHint = () => writeHint(false);

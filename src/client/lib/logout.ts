import { useMutation } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest, forgetAnswers } from './api';
import { signedOut } from './auth';
import { forgetDrafts } from './drafts';
import { queryClient } from './query-client';
import { announceSignOut } from './session-channel';

/** Forgets everything of the account that signed out: its user, its cached answers. */
export function forgetSignedIn() {
  forgetAnswers();
  signedOut();
  queryClient.clear();
  // A sign-out on purpose: this tab's drafts go, and the other tabs hear of it (issue 43, item 18).
  forgetDrafts();
  announceSignOut();
}

/** Logout: empty the current user, clear all cached data, go to / (spec section 4). */
export function useLogout() {
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: async () => (await apiRequest('POST', '/api/logout')).json(),
    onSuccess: () => {
      forgetSignedIn();
      navigate('/');
    },
  });
}

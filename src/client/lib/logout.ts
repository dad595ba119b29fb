import { useMutation } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { apiRequest, forgetAnswers } from './api';
import { forgetCurrentUser } from './auth';
import { queryClient } from './query-client';

/** Logout: empty the current user, clear all cached data, go to / (spec section 4). */
export function useLogout() {
  const [, navigate] = useLocation();
  return useMutation({
    mutationFn: async () => (await apiRequest('POST', '/api/logout')).json(),
    onSuccess: () => {
      forgetAnswers();
      forgetCurrentUser();
      queryClient.clear();
      navigate('/');
    },
  });
}

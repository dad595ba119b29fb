import * as React from 'react';
import { useLocation } from 'wouter';
import { toast } from '@/lib/toast';
import { useAuth } from './auth';
import { AUTH_REDIRECT_DELAY_MS } from './unauthorized';

/**
 * Staff may not upload cards or add payment methods: the toast 'Admin Access', then /admin
 * after 500 ms (spec section 6). The server refuses them too; this only explains it.
 */
export function useCustomerOnly(description: string) {
  const { isAdmin } = useAuth();
  const [, navigate] = useLocation();
  React.useEffect(() => {
    if (!isAdmin) return;
    toast({ title: 'Admin Access', description });
    const timer = setTimeout(() => navigate('/admin'), AUTH_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isAdmin, description, navigate]);
  return !isAdmin;
}

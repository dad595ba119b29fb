import type { EmailPreferences } from '@shared/email-preferences';
import type { DataExport } from '@shared/privacy';
import { queryOptions } from '@tanstack/react-query';
import { getJson } from '@/lib/api';
import { refresh } from '@/lib/queries';

/** Whether two-factor is on for the customer (decision 072). */
export const twoFactorQuery = () =>
  queryOptions({
    queryKey: ['/api/two-factor'],
    queryFn: () => getJson<{ enabled: boolean }>('/api/two-factor'),
  });

export const refreshTwoFactor = () => refresh(twoFactorQuery().queryKey);

export const EMAIL_PREFERENCES_PATH = '/api/account/email-preferences';

export const emailPreferencesQuery = () =>
  queryOptions<EmailPreferences>({ queryKey: [EMAIL_PREFERENCES_PATH] });

export const EXPORTS_PATH = '/api/account/exports';

/** The customer's copies of their data (decision 083). */
export const exportsQuery = () => queryOptions<DataExport[]>({ queryKey: [EXPORTS_PATH] });

export const refreshExports = () => refresh(exportsQuery().queryKey);

import type { InstantPolicy } from '@shared/instant-decisions';
import type { AdminBrandRate, RateChange } from '@shared/rates';
import { queryOptions } from '@tanstack/react-query';
import { ratesQuery, refresh } from '@/lib/queries';

/** Every brand with its terms, retired ones too; pushed by the `rates` topic. */
export const adminRatesQuery = () =>
  queryOptions<AdminBrandRate[]>({ queryKey: ['/api/admin/rates'] });

export const rateHistoryQuery = () =>
  queryOptions<RateChange[]>({ queryKey: ['/api/admin/rates/history'] });

/** After a change of terms: the staff list, its history and the public list the forms quote. */
export const refreshRates = () =>
  refresh(adminRatesQuery().queryKey, rateHistoryQuery().queryKey, ratesQuery().queryKey);

/** The owner's instant-decision policy (issue 41). */
export const instantPolicyQuery = () =>
  queryOptions<InstantPolicy>({ queryKey: ['/api/admin/instant-decisions'] });

export const refreshInstantPolicy = () => refresh(instantPolicyQuery().queryKey);

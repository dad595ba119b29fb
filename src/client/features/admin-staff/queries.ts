import type { StaffMember } from '@shared/staff';
import { queryOptions } from '@tanstack/react-query';
import { refresh } from '@/lib/queries';

/** The staff accounts (owners only, decision 077). */
export const staffQuery = () => queryOptions<StaffMember[]>({ queryKey: ['/api/admin/staff'] });

export const refreshStaff = () => refresh(staffQuery().queryKey);

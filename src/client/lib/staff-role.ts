import { type Capability, can } from '@shared/staff-roles';
import { useAuth } from './auth';

/**
 * Whether the signed-in staff member's role holds `capability`: the same table the server's
 * guard reads (src/shared/staff-roles.ts), so the portal hides what would be refused.
 */
export function useStaffCan(): (capability: Capability) => boolean {
  const { user } = useAuth();
  return (capability) => can(user?.staffRole, capability);
}

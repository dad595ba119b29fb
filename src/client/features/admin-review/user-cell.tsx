import { displayName } from '@shared/user-display';
import { CustomerLink } from '@/features/admin-shared/customer-link';

/** Name and email when the email is known, otherwise the first 8 characters of the id. */
export function UserCell({
  id,
  email,
  firstName,
  lastName,
}: {
  id: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
}) {
  if (!email)
    return (
      <CustomerLink userId={id} className="font-mono text-xs">
        {id.slice(0, 8)}
      </CustomerLink>
    );
  const name = displayName({ email, firstName, lastName });
  return (
    <div className="min-w-0">
      <p className="truncate font-medium">
        <CustomerLink userId={id}>{name}</CustomerLink>
      </p>
      {name !== email && <p className="truncate text-xs text-muted-foreground">{email}</p>}
    </div>
  );
}

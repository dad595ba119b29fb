import { initials } from '@shared/user-display';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';

export function UserAvatar({
  user,
  className,
}: {
  user: {
    email?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    profileImageUrl?: string | null;
  };
  className?: string;
}) {
  return (
    <Avatar className={className}>
      {user.profileImageUrl && <AvatarImage src={user.profileImageUrl} alt="" />}
      <AvatarFallback>{initials(user)}</AvatarFallback>
    </Avatar>
  );
}

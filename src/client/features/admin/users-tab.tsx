import { ADMIN_PAGE_SIZE } from '@shared/admin';
import { useQuery } from '@tanstack/react-query';
import { UsersIcon } from 'lucide-react';
import { DateTimeStack } from '@/components/date-time';
import { EmptyState } from '@/components/empty-state';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { Pager, useCursorPages } from './pager';
import { adminUsersQuery } from './queries';

export function UsersTab() {
  const pages = useCursorPages();
  const query = useQuery(adminUsersQuery(pages.cursor));
  const users = query.data?.items ?? [];
  if (query.isLoading) return <Skeleton className="h-48" />;
  if (users.length === 0) {
    return (
      <EmptyState icon={<UsersIcon />} testId="users-empty">
        No users yet
      </EmptyState>
    );
  }
  return (
    <div className="grid gap-4">
      <Table data-testid="users-table">
        <TableHeader>
          <TableRow>
            <TableHead>Signup Date &amp; Time</TableHead>
            <TableHead>Name</TableHead>
            <TableHead>Email</TableHead>
            <TableHead>User ID</TableHead>
            <TableHead>Role</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {users.map((u) => (
            <TableRow key={u.id} data-testid="user-row">
              <TableCell>
                <DateTimeStack value={u.createdAt} />
              </TableCell>
              <TableCell className="font-medium">
                {[u.firstName, u.lastName].filter(Boolean).join(' ') || '—'}
              </TableCell>
              <TableCell>{u.email}</TableCell>
              <TableCell className="font-mono text-xs" title={u.id}>
                {u.id.slice(0, 12)}
              </TableCell>
              <TableCell>
                {u.isAdmin ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Pager
        page={pages.page}
        count={users.length}
        pageSize={ADMIN_PAGE_SIZE}
        nextCursor={query.data?.nextCursor}
        onNext={pages.next}
        onPrevious={pages.previous}
      />
    </div>
  );
}

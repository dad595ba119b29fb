import { SHELL_BRAND } from '@shared/brand';
import { displayName } from '@shared/user-display';
import {
  HistoryIcon,
  LayoutDashboardIcon,
  LifeBuoyIcon,
  LogOutIcon,
  MessageSquareIcon,
  ShieldIcon,
  UploadIcon,
  UserIcon,
  WalletIcon,
} from 'lucide-react';
import type * as React from 'react';
import { Link, useLocation } from 'wouter';
import { BrandMark } from '@/components/brand-logo';
import { NotificationBell } from '@/components/notification-bell';
import { ReauthDialog } from '@/components/reauth-dialog';
import { SuspendedBanner } from '@/components/suspended-banner';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import {
  Sidebar,
  SidebarMenuButton,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from '@/components/ui/sidebar';
import { UserAvatar } from '@/components/user-avatar';
import { VerifyEmailBanner } from '@/components/verify-email-banner';
import { useAuth } from '@/lib/auth';
import { useLiveUpdates } from '@/lib/live-updates';
import { useLogout } from '@/lib/logout';

const NAV = [
  { title: 'Dashboard', href: '/', icon: LayoutDashboardIcon },
  { title: 'Upload Card', href: '/upload', icon: UploadIcon },
  { title: 'History', href: '/history', icon: HistoryIcon },
  { title: 'Payment Methods', href: '/payment-methods', icon: WalletIcon },
  { title: 'Support Chat', href: '/chat', icon: MessageSquareIcon },
  { title: 'Contact Support', href: '/support', icon: LifeBuoyIcon },
  { title: 'Profile', href: '/profile', icon: UserIcon },
];
const ADMIN_NAV = { title: 'Admin Panel', href: '/admin', icon: ShieldIcon };

export function AppLayout({ children }: { children: React.ReactNode }) {
  useLiveUpdates(true);
  const { isAdmin } = useAuth();
  return (
    <SidebarProvider>
      <AppSidebar />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center justify-between gap-2 border-b bg-background/85 px-3 backdrop-blur sm:px-4">
          <div className="flex items-center gap-2">
            <SidebarTrigger />
            <span className="font-semibold md:hidden">{SHELL_BRAND}</span>
          </div>
          <div className="flex items-center gap-1">
            {!isAdmin && <NotificationBell />}
            <ThemeToggle />
          </div>
        </header>
        <SuspendedBanner />
        <VerifyEmailBanner />
        <ReauthDialog />
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6 sm:py-8">
          {children}
        </main>
      </div>
    </SidebarProvider>
  );
}

function AppSidebar() {
  const { user, isAdmin } = useAuth();
  const [location] = useLocation();
  const { setOpenMobile, isMobile } = useSidebar();
  const logout = useLogout();
  const items = isAdmin ? [...NAV, ADMIN_NAV] : NAV;

  return (
    <Sidebar label="Main navigation">
      <div className="flex h-14 items-center gap-2.5 border-b border-sidebar-border px-2.5">
        <BrandMark />
        <span
          className="truncate font-semibold tracking-tight group-data-[state=collapsed]/sidebar:hidden"
          data-testid="shell-brand"
        >
          {SHELL_BRAND}
        </span>
      </div>
      <nav className="flex flex-1 flex-col gap-1 overflow-y-auto p-2">
        {items.map(({ title, href, icon: Icon }) => (
          <Link key={href} href={href} asChild onClick={() => isMobile && setOpenMobile(false)}>
            <SidebarMenuButton
              isActive={location === href}
              tooltip={title}
              data-testid={`nav-${href === '/' ? 'dashboard' : href.slice(1)}`}
            >
              <Icon />
              <span>{title}</span>
            </SidebarMenuButton>
          </Link>
        ))}
      </nav>
      {user && (
        <div className="grid min-w-0 gap-2 border-t border-sidebar-border p-2">
          <div className="flex min-w-0 items-center gap-2.5 px-0.5 group-data-[state=collapsed]/sidebar:justify-center">
            <UserAvatar user={user} className="size-8" />
            <div className="min-w-0 flex-1 group-data-[state=collapsed]/sidebar:hidden">
              <p className="truncate text-sm font-medium" data-testid="user-display-name">
                {displayName(user)}
              </p>
              <p className="truncate text-xs text-muted-foreground">{user.email}</p>
            </div>
          </div>
          <Button
            variant="ghost"
            className="justify-start gap-3 px-2.5 group-data-[state=collapsed]/sidebar:justify-center group-data-[state=collapsed]/sidebar:px-0"
            disabled={logout.isPending}
            onClick={() => logout.mutate()}
            data-testid="logout"
            aria-label="Log out"
          >
            <LogOutIcon />
            <span className="group-data-[state=collapsed]/sidebar:hidden">
              {logout.isPending ? 'Logging out...' : 'Log Out'}
            </span>
          </Button>
        </div>
      )}
    </Sidebar>
  );
}

import { type ReactNode, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { deferredModule, useDeferredModule } from '../../../lib/deferred-module';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { useAccountEmail } from '../api/account-email';
import { useOwnStrategyNames } from '../api/own-strategies';
import { AppHeader } from './app-header';
import { SidebarNav } from './sidebar-nav';
import { TickerTape } from './ticker-tape';

/** The drawer's code (Radix Dialog) loads with its first opening, or at idle time (`preloadNavigationDrawer`). */
const drawerModule = deferredModule(() => import('./navigation-drawer'));
export const preloadNavigationDrawer = drawerModule.preload;

interface AppShellProps {
  /** Shown until /api/email answers. */
  account: { email: string; username: string; role?: string };
  onLogout: () => void;
  /** Shown in the header beside the theme toggle (the notification bell, composed by the app). */
  headerExtras?: ReactNode;
  children: ReactNode;
}

/**
 * docs/spec/01-core-screens.md Shell: ticker tape fixed on top, sidebar on the left from 768 px (a drawer behind the hamburger
 * below that), sticky header, then the screen.
 */
export function AppShell({ account, onLogout, headerExtras, children }: AppShellProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The drawer is rendered from its first opening on (it stays for its exit transition and later openings).
  const [drawerWanted, setDrawerWanted] = useState(false);
  if (drawerOpen && !drawerWanted) setDrawerWanted(true);
  const NavigationDrawer = useDeferredModule(drawerModule, drawerWanted)?.default;
  const { pathname } = useLocation();
  // A phone has the drawer instead of the sidebar: the hidden column is not rendered at all there.
  const mobile = useMediaQuery(MOBILE_QUERY);
  const email = useAccountEmail();
  useOwnStrategyNames();
  const shown = email.data ?? account;

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the drawer whenever the page changes
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="fixed top-2 left-2 z-[60] -translate-y-20 rounded-lg bg-primary-solid px-3 py-2 text-sm font-semibold text-primary-fg focus:translate-y-0"
      >
        Skip to content
      </a>
      <TickerTape className="fixed inset-x-0 top-0 z-40" />

      {mobile ? null : (
        <aside className="fixed top-9 bottom-0 left-0 z-30 hidden w-64 border-r border-line bg-surface md:block">
          <SidebarNav onLogout={onLogout} isAdmin={account.role === 'admin'} />
        </aside>
      )}

      {NavigationDrawer ? (
        <NavigationDrawer open={drawerOpen} onOpenChange={setDrawerOpen}>
          <SidebarNav onLogout={onLogout} isAdmin={account.role === 'admin'} />
        </NavigationDrawer>
      ) : null}

      <div className="flex min-h-dvh flex-col pt-9 md:pl-64">
        <AppHeader
          email={shown.email}
          username={shown.username}
          onLogout={onLogout}
          onOpenNavigation={() => setDrawerOpen(true)}
          navigationOpen={drawerOpen}
          extras={headerExtras}
        />
        <main
          id="main"
          tabIndex={-1}
          className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-8"
        >
          {children}
        </main>
      </div>
    </div>
  );
}

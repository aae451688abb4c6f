import { clsx } from 'clsx';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { CloseIcon } from '../../../components/ui/icons';
import { usePresence } from '../../../components/ui/use-presence';
import { useAccountEmail } from '../api/account-email';
import { useOwnStrategyNames } from '../api/own-strategies';
import { AppHeader } from './app-header';
import { SidebarNav } from './sidebar-nav';
import { TickerTape } from './ticker-tape';

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
  const drawer = usePresence(drawerOpen, 300);
  const { pathname } = useLocation();
  const email = useAccountEmail();
  useOwnStrategyNames();
  const shown = email.data ?? account;

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the drawer whenever the page changes
  useEffect(() => setDrawerOpen(false), [pathname]);

  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!drawerOpen) return;
    // Focus moves into the drawer and back to where it was (the hamburger) when it closes.
    const opener = document.activeElement as HTMLElement | null;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (opener?.isConnected) opener.focus();
    };
  }, [drawerOpen]);
  useEffect(() => {
    if (drawerOpen && drawer.mounted) closeRef.current?.focus();
  }, [drawerOpen, drawer.mounted]);

  return (
    <div className="min-h-dvh">
      <a
        href="#main"
        className="fixed top-2 left-2 z-[60] -translate-y-20 rounded-lg bg-primary-solid px-3 py-2 text-sm font-semibold text-primary-fg focus:translate-y-0"
      >
        Skip to content
      </a>
      <TickerTape className="fixed inset-x-0 top-0 z-40" />

      <aside className="fixed top-9 bottom-0 left-0 z-30 hidden w-64 border-r border-line bg-surface md:block">
        <SidebarNav onLogout={onLogout} isAdmin={account.role === 'admin'} />
      </aside>

      {drawer.mounted ? (
        <div className={clsx('fixed inset-0 top-9 z-40 md:hidden', !drawerOpen && 'pointer-events-none')}>
          <div
            aria-hidden="true"
            onClick={() => setDrawerOpen(false)}
            className={clsx(
              'absolute inset-0 bg-slate-950/60 transition-opacity duration-150',
              drawer.visible ? 'opacity-100' : 'opacity-0',
            )}
          />
          <div
            role="dialog"
            aria-modal="true"
            aria-label="Navigation"
            inert={!drawerOpen}
            className={clsx(
              'absolute inset-y-0 left-0 w-72 max-w-[85vw] border-r border-line bg-surface shadow-2xl transition-transform duration-300 ease-out',
              drawer.visible ? 'translate-x-0' : '-translate-x-full',
            )}
          >
            <button
              ref={closeRef}
              type="button"
              onClick={() => setDrawerOpen(false)}
              aria-label="Close navigation"
              className="absolute top-3.5 right-3 flex size-9 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
            >
              <CloseIcon className="size-5" />
            </button>
            <SidebarNav onLogout={onLogout} isAdmin={account.role === 'admin'} />
          </div>
        </div>
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

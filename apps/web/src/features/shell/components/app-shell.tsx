import * as Dialog from '@radix-ui/react-dialog';
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
  const opener = useRef<HTMLElement | null>(null);

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

      <Dialog.Root open={drawer.mounted} onOpenChange={setDrawerOpen}>
        <Dialog.Portal>
          <div className={clsx('fixed inset-0 top-9 z-40 md:hidden', !drawerOpen && 'pointer-events-none')}>
            <Dialog.Overlay
              className={clsx(
                'absolute inset-0 bg-slate-950/60 transition-opacity duration-150',
                drawer.visible ? 'opacity-100' : 'opacity-0',
              )}
            />
            <Dialog.Content
              aria-describedby={undefined}
              inert={!drawerOpen}
              onOpenAutoFocus={() => {
                opener.current = document.activeElement as HTMLElement | null;
              }}
              onCloseAutoFocus={(event) => {
                // Focus goes back to where it was (the hamburger) when the drawer closes.
                event.preventDefault();
                if (opener.current?.isConnected) opener.current.focus();
              }}
              className={clsx(
                'absolute inset-y-0 left-0 w-72 max-w-[85vw] border-r border-line bg-surface shadow-2xl transition-transform duration-300 ease-out focus:outline-none',
                drawer.visible ? 'translate-x-0' : '-translate-x-full',
              )}
            >
              <Dialog.Title className="sr-only">Navigation</Dialog.Title>
              <Dialog.Close
                aria-label="Close navigation"
                className="absolute top-3.5 right-3 flex size-9 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
              >
                <CloseIcon className="size-5" />
              </Dialog.Close>
              <SidebarNav onLogout={onLogout} isAdmin={account.role === 'admin'} />
            </Dialog.Content>
          </div>
        </Dialog.Portal>
      </Dialog.Root>

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

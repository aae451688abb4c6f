import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Button } from '../../components/ui/button';
import { FullScreenLoader } from '../../components/ui/full-screen-loader';
import { AlertIcon } from '../../components/ui/icons';
import { preloadModal } from '../../components/ui/modal';
import { useMe } from '../../features/auth/api/get-me';
import { useLogout } from '../../features/auth/api/logout';
import { showSuccessFromBeforeReload } from '../../features/bots/lib/reload-page';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { AppShell, preloadNavigationDrawer } from '../../features/shell/components/app-shell';
import { isApiError } from '../../lib/api-client';
import { whenIdle } from '../../lib/deferred-module';
import { usePushChannel } from '../../lib/push-channel';
import { loginPathFor } from '../../lib/redirect';
import { getToken } from '../../lib/session';
import { loadToaster } from '../../lib/toast';

/** docs/spec/01-core-screens.md §2: every non-public screen. No token → the login page, remembering where the user wanted to go. */
export function GuardedLayout() {
  const location = useLocation();
  if (!getToken()) {
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
  return <SignedIn />;
}

function SignedIn() {
  const me = useMe();
  const logout = useLogout();
  // Signed-in screens raise toasts and open dialogs: the toaster and the dialogs' code load once the first
  // screen is drawn (idle time), so their code does not compete with the screen's. A toast raised or a dialog
  // opened before then loads it itself.
  useEffect(
    () =>
      whenIdle(() => {
        void loadToaster();
        preloadModal();
        preloadNavigationDrawer();
      }),
    [],
  );
  // A save that reloads the page says once more that it worked.
  useEffect(showSuccessFromBeforeReload, []);
  // Live updates for every signed-in page; the pages' own polling stays as the fallback.
  usePushChannel();

  if (!me.data) {
    // A 401 is already on its way to the login page (API client); anything else gets a retry.
    if (me.isError && !(isApiError(me.error) && me.error.status === 401)) {
      return <Unreachable message={me.error.message} onRetry={() => void me.refetch()} />;
    }
    return <FullScreenLoader />;
  }

  return (
    <AppShell account={me.data} onLogout={logout} headerExtras={<NotificationBell />}>
      <Outlet />
    </AppShell>
  );
}

function Unreachable({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="flex min-h-dvh items-center justify-center p-6">
      <div role="alert" className="max-w-sm text-center">
        <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-down/10 text-down">
          <AlertIcon className="size-6" />
        </div>
        <h1 className="text-lg font-semibold text-fg">Cannot reach GridBot</h1>
        <p className="mt-2 text-sm text-muted">{message}</p>
        <Button className="mt-6" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </div>
  );
}

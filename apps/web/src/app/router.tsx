import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { LoaderFunction, RouteObject } from 'react-router';
import { FullScreenLoader } from '../components/ui/full-screen-loader';
import { env } from '../lib/env';
import { AuthLayout } from './layouts/auth-layout';
import { RootLayout } from './layouts/root-layout';
import { prefetchLoader, type ScreenPrefetch } from './prefetch';
import { RouteErrorBoundary } from './route-error-boundary';

type ScreenModule = { default: ComponentType };
type RunningBotQueries = typeof import('../features/bots/api/running-bot');

/** The bot pages' prefetch: the bot of the path's id. */
function runningBotPrefetch(kind: 'multigrid' | 'scalping', queries: RunningBotQueries): ScreenPrefetch {
  return (queryClient, params) => {
    if (params.id) queries.prefetchRunningBot(queryClient, kind, params.id);
  };
}

/** A route screen: its own file, loaded on demand, with its own error boundary (docs/contributing.md §5). */
function screen(
  path: string | undefined,
  load: () => Promise<ScreenModule>,
  loader?: LoaderFunction,
): RouteObject {
  return {
    ...(path === undefined ? { index: true } : { path }),
    // A static loader runs beside `lazy`, so a screen's data requests start with its code download.
    ...(loader ? { loader } : {}),
    lazy: async () => ({ Component: (await load()).default }),
    errorElement: <RouteErrorBoundary />,
  } as RouteObject;
}

/**
 * docs/spec/01-core-screens.md §2 route table. The subscription screens exist only when the build flag is on.
 * With the app's query client, the screens a session opens on (the dashboard, a running bot) prefetch
 * their first data (app/prefetch.ts).
 */
export function appRoutes(
  queryClient?: QueryClient,
  subscriptionEnabled: boolean = env.subscriptionEnabled,
): RouteObject[] {
  const prefetch = (load: Parameters<typeof prefetchLoader>[1]) =>
    queryClient ? prefetchLoader(queryClient, load) : undefined;
  const publicScreens = [
    screen(undefined, () => import('./routes/login')),
    screen('signup', () => import('./routes/signup')),
    screen('verifyOtp', () => import('./routes/verify-otp')),
    screen('forgetpassword', () => import('./routes/forget-password')),
    screen('resetpassword/:token', () => import('./routes/reset-password')),
    screen('thankyou', () => import('./routes/thank-you')),
    // The spec leaves the contact path open; it is public because visitors without an account use it.
    screen('contact', () => import('./routes/contact')),
  ];

  const guardedScreens = [
    screen(
      'dashboard',
      () => import('./routes/dashboard'),
      prefetch(() =>
        import('../features/dashboard/api/dashboard-queries').then((m) => m.prefetchDashboardData),
      ),
    ),
    screen('create-strategy', () => import('./routes/create-strategy')),
    screen('botcreate', () => import('./routes/bot-create')),
    screen('createscalpingstrategy', () => import('./routes/create-scalping-strategy')),
    screen('startbot', () => import('./routes/start-bot')),
    // The range grid (docs/trading-rules.md §2.6), beyond the spec's two bot kinds.
    screen('grid', () => import('./routes/grid')),
    screen('grid-bot/:id', () => import('./routes/grid-bot')),
    screen('sip', () => import('./routes/sip')),
    screen('cycle', () => import('./routes/cycle')),
    screen('mywallet', () => import('./routes/my-wallet')),
    screen(
      'running-bot/:id',
      () => import('./routes/running-bot'),
      prefetch(() =>
        import('../features/bots/api/running-bot').then((m) => runningBotPrefetch('multigrid', m)),
      ),
    ),
    screen(
      'scalp-running-bot/:id',
      () => import('./routes/scalp-running-bot'),
      prefetch(() =>
        import('../features/bots/api/running-bot').then((m) => runningBotPrefetch('scalping', m)),
      ),
    ),
    screen('api-setting', () => import('./routes/api-setting')),
    screen('notifications', () => import('./routes/notifications')),
    screen('security', () => import('./routes/security')),
    screen('livebots', () => import('./routes/livebots')),
    screen('history', () => import('./routes/history')),
    // Help for signed-in members (the public contact page speaks to visitors).
    screen('help', () => import('./routes/help')),
    screen('mystrategies', () => import('./routes/my-strategies')),
    screen('editstrategy/:strategy_name', () => import('./routes/edit-strategy')),
    screen('scalpeditstrategy/:strategy_name', () => import('./routes/scalp-edit-strategy')),
    // Administration (beyond the spec); the screen itself admits only the administrator.
    screen('admin', () => import('./routes/admin')),
  ];
  if (subscriptionEnabled) {
    guardedScreens.push(
      screen('subscription', () => import('./routes/subscription')),
      screen('Wallet-deposit', () => import('./routes/wallet-deposit')),
      screen('withdraw', () => import('./routes/withdraw')),
      screen('referral-program', () => import('./routes/referral-program')),
    );
  }

  return [
    {
      element: <RootLayout />,
      hydrateFallbackElement: <FullScreenLoader />,
      errorElement: <RouteErrorBoundary />,
      children: [
        { element: <AuthLayout />, children: publicScreens },
        {
          // The signed-in shell (sidebar, header, drawer) loads with the first guarded screen, not the login.
          // The session check (/api/me) starts with the shell's download: without a stored user the shell waits for it.
          loader: prefetch(() =>
            import('../features/auth/api/get-me').then(
              (m) => (client: QueryClient) => void client.prefetchQuery(m.meQueryOptions()),
            ),
          ),
          lazy: async () => ({ Component: (await import('./layouts/guarded-layout')).GuardedLayout }),
          children: guardedScreens,
        },
        screen('*', () => import('./routes/not-found')),
      ],
    },
  ];
}

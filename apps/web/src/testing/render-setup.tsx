import type { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type DataRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProvider } from '../app/provider';
import { setUnauthorizedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { saveSession } from '../lib/session';
import { testUser } from './mock-api';

export interface RenderOptions {
  /** Router state of the first entry (e.g. the sign-up data /verifyOtp expects). */
  state?: unknown;
  signedIn?: boolean;
  subscriptionEnabled?: boolean;
  /** Passed to userEvent, e.g. { advanceTimers: vi.advanceTimersByTime } with fake timers. */
  userEventOptions?: Parameters<typeof userEvent.setup>[0];
}

/**
 * The session, build flag and first history entry of a test, and a fresh query client that does not retry.
 * Routers in tests are browser routers: the API client reads window.location for its 401 rule, so tests use
 * the real (happy-dom) history.
 */
export function prepareRender(path: string, options: RenderOptions): QueryClient {
  if (options.signedIn) saveSession('test-token', testUser);
  // Routes and menus read the flag from the build env; setup-tests unstubs it after each test.
  vi.stubEnv('VITE_SUBSCRIPTION_ENABLED', options.subscriptionEnabled === false ? 'false' : 'true');
  window.history.replaceState(
    options.state === undefined ? null : { usr: options.state, key: 'test', idx: 0 },
    '',
    path,
  );
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  return queryClient;
}

/** Mounts the router inside the app's providers; a 401 sends the router to the login page, as in the app. */
export function mountRouter(router: DataRouter, queryClient: QueryClient, options: RenderOptions) {
  setUnauthorizedHandler((loginPath) => {
    void router.navigate(loginPath, { replace: true });
  });
  const user = userEvent.setup(options.userEventOptions);
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, user, queryClient };
}

/** Path and query of the current location. */
export function currentUrl(): string {
  return `${window.location.pathname}${window.location.search}`;
}

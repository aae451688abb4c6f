import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createBrowserRouter, type LoaderFunction, type RouteObject, useLocation } from 'react-router';
import { RouteErrorBoundary } from '../app/route-error-boundary';
import { loadToaster } from '../lib/toast';
import { mountRouter, prepareRender, type RenderOptions } from './render-setup';

export { currentUrl } from './render-setup';

interface RenderFeatureOptions extends RenderOptions {
  /** The route's pattern when it has parameters (e.g. '/running-bot/:id'); by default the pathname of `path`. */
  route?: string;
  /** The route's loader (e.g. its data prefetch), for tests that rely on it. */
  loader?: (queryClient: QueryClient) => LoaderFunction | undefined;
  /** Real screens beside it, where a test looks at what the next screen shows (e.g. the state it was given). */
  routes?: RouteObject[];
}

/**
 * One screen at `path` inside the app's providers, without the shell, the guard or the other screens: every
 * other path is a stand-in that names itself ("/dashboard page"), so a test still sees where the screen sent
 * the user (currentUrl(), or the stand-in's text).
 */
export function renderFeature(path: string, element: ReactNode, options: RenderFeatureOptions = {}) {
  const queryClient = prepareRender(path, options);
  // The signed-in shell loads the toaster once its first screen is drawn; a signed-in screen's test has it ready.
  if (options.signedIn) void loadToaster();
  const route = options.route ?? new URL(path, 'http://localhost').pathname;
  const loader = options.loader?.(queryClient);
  const router = createBrowserRouter([
    {
      path: route,
      element,
      errorElement: <RouteErrorBoundary />,
      ...(loader ? { loader, hydrateFallbackElement: <p>Loading</p> } : {}),
    },
    ...(options.routes ?? []),
    { path: '*', element: <StandIn /> },
  ]);
  return mountRouter(router, queryClient, options);
}

/** Where the screen sent the user: the path, as text. */
function StandIn() {
  const location = useLocation();
  return <p>{location.pathname} page</p>;
}

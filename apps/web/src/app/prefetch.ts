import type { QueryClient } from '@tanstack/react-query';
import type { LoaderFunction, Params } from 'react-router';
import { getToken } from '../lib/session';

/**
 * Starts downloading the signed-in shell and the dashboard while the login request is in flight, so the
 * dashboard appears as soon as the session does. The router's lazy routes import the same modules, so
 * nothing loads twice.
 */
export function prefetchDashboard(): void {
  void Promise.all([import('./layouts/guarded-layout'), import('./routes/dashboard')]).catch(() => {
    // A failed prefetch costs nothing: the route loads its code again when it is opened.
  });
}

/** A screen's prefetch: puts its first queries in flight in the app's query client. */
export type ScreenPrefetch = (queryClient: QueryClient, params: Params) => void;

/**
 * A route loader that asks for a signed-in screen's first data while the screen's code downloads, instead of
 * after it has loaded and rendered: the requests start from the app's entry, in parallel with the chunks.
 * It resolves at once (the screen renders as soon as its code is there, with skeletons until the answers
 * come) and loads only the small module with the screen's queries. Signed out, it asks for nothing (the
 * guard sends the visitor to the login page).
 */
export function prefetchLoader(
  queryClient: QueryClient,
  load: () => Promise<ScreenPrefetch>,
): LoaderFunction {
  return ({ params }) => {
    if (getToken()) {
      void load()
        .then((prefetch) => prefetch(queryClient, params))
        .catch(() => {
          // The screen's own queries ask again when it renders.
        });
    }
    return null;
  };
}

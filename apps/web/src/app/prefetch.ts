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

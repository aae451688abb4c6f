import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button, buttonClasses } from '../components/ui/button';
import { AlertIcon } from '../components/ui/icons';

/** Each route screen's error boundary: the shell stays, the failing screen says so and offers a way on. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  if (error) console.error(error);
  return (
    <div
      role="alert"
      className="mx-auto my-12 max-w-lg rounded-xl border border-line bg-surface p-8 text-center shadow-card"
    >
      <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-down/10 text-down">
        <AlertIcon className="size-6" />
      </div>
      <h1 className="text-lg font-semibold text-fg">This page could not be shown</h1>
      <p className="mt-2 text-sm text-muted">
        Something went wrong while loading it. Try again, or go back to the dashboard.
      </p>
      <p className="mt-3 break-words font-mono text-xs text-muted">{message}</p>
      <div className="mt-6 flex justify-center gap-2">
        <Button onClick={() => window.location.reload()}>Try again</Button>
        <Link to="/dashboard" className={buttonClasses('outline')}>
          Dashboard
        </Link>
      </div>
    </div>
  );
}

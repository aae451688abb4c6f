import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { getToken } from '../../lib/session';

export default function NotFoundRoute() {
  const signedIn = !!getToken();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-6 text-center">
      <title>Page not found · GridBot</title>
      <Logo className="mb-10" />
      <p className="font-mono text-sm font-semibold text-primary">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-fg">Page not found</h1>
      <p className="mt-3 max-w-sm text-muted">The page you are looking for does not exist or has moved.</p>
      <Link to={signedIn ? '/dashboard' : '/'} className={buttonClasses('primary', 'lg', 'mt-8')}>
        {signedIn ? 'Go to Dashboard' : 'Go to Sign In'}
      </Link>
    </main>
  );
}

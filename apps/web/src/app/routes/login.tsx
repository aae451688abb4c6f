import { Navigate, useSearchParams } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form';
import { safeRedirect } from '../../lib/redirect';
import { getToken } from '../../lib/session';
import { AuthPanel } from '../layouts/auth-panel';
import { prefetchDashboard } from '../prefetch';

export default function LoginRoute() {
  const [searchParams] = useSearchParams();
  // Already signed in: go on (a stale token is caught by the guard's /api/me check and lands back here).
  if (getToken()) return <Navigate to={safeRedirect(searchParams.get('redirect')) ?? '/dashboard'} replace />;
  return (
    <AuthPanel title="Log in to your account" description="Enter your email address and password to log in.">
      <LoginForm onSubmitting={prefetchDashboard} />
    </AuthPanel>
  );
}

import { Link, Navigate, useLocation } from 'react-router';
import type { SignupState } from '../../features/auth/components/signup-form';
import { VerifyOtpForm } from '../../features/auth/components/verify-otp-form';
import { AuthPanel } from '../layouts/auth-panel';

function readSignupState(state: unknown): SignupState | null {
  if (!state || typeof state !== 'object') return null;
  const value = state as Partial<SignupState>;
  return typeof value.email === 'string' && value.email ? (value as SignupState) : null;
}

/** docs/spec/02-bots-wallet-account.md Verify OTP: reached with the sign-up data; without an e-mail it goes back to sign-up. */
export default function VerifyOtpRoute() {
  const location = useLocation();
  const signup = readSignupState(location.state);
  if (!signup) return <Navigate to="/signup" replace />;
  return (
    <AuthPanel
      title="Verify your email"
      description={
        <>
          Enter the 6-digit code we sent to <strong className="font-semibold text-fg">{signup.email}</strong>.
        </>
      }
    >
      <VerifyOtpForm signup={signup} />
      <p className="mt-4 text-center text-sm text-muted">
        Wrong address?{' '}
        <Link to="/signup" className="font-semibold text-primary hover:underline">
          Back to sign up
        </Link>
      </p>
    </AuthPanel>
  );
}

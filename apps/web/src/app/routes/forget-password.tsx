import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';
import { AuthPanel } from '../layouts/auth-panel';

export default function ForgetPasswordRoute() {
  return (
    <AuthPanel
      title="Forgot your password?"
      description="Enter your email address and we will send you a reset link."
    >
      <ForgotPasswordForm />
    </AuthPanel>
  );
}

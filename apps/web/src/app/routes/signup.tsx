import { SignupForm } from '../../features/auth/components/signup-form';
import { AuthPanel } from '../layouts/auth-panel';

export default function SignupRoute() {
  return (
    <AuthPanel
      title="Create your account"
      description="We will e-mail you a 6-digit code to confirm your address."
    >
      <SignupForm />
    </AuthPanel>
  );
}

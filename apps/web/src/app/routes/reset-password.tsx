import { useParams } from 'react-router';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';
import { AuthPanel } from '../layouts/auth-panel';

export default function ResetPasswordRoute() {
  const { token = '' } = useParams();
  return (
    <AuthPanel title="Reset your password" description="Choose a new password for your account.">
      <ResetPasswordForm token={token} />
    </AuthPanel>
  );
}

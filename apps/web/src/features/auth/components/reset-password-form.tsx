import { authMessages } from '@gridbot/shared';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { isApiError } from '../../../lib/api-client';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { toast } from '../../../lib/toast';
import { useResetPassword } from '../api/password-reset';
import { BackToSignIn, NewPasswordInput } from './auth-fields';

const validation = lazyResolver(() =>
  import('../schemas/auth-resolvers').then((m) => m.resetPasswordResolver),
);

export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm({
    resolver: validation.resolver,
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      await reset.mutateAsync({ token, password });
      toast.success(authMessages.passwordReset);
      navigate('/', { replace: true });
    } catch (error) {
      // docs/spec/02-bots-wallet-account.md §8 text first; the server's reason (expired or used link…) as the detail.
      const description = isApiError(error) && error.fromServer ? error.message : undefined;
      toast.error(authMessages.passwordResetFailed, { description });
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} onFocus={() => void validation.preload()} className="space-y-5">
      <NewPasswordInput
        label="New Password"
        placeholder="At least 6 characters"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <NewPasswordInput
        label="Confirm Password"
        placeholder="Repeat the new password"
        error={errors.confirmPassword?.message}
        {...form.register('confirmPassword')}
      />
      <Button type="submit" size="lg" fullWidth loading={reset.isPending}>
        {reset.isPending ? 'Resetting...' : 'Reset Password'}
      </Button>
      <BackToSignIn />
    </form>
  );
}

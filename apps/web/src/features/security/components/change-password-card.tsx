import { changePasswordFormSchema, LOGIN_INPUT_MAX } from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useChangePassword } from '../api/security';

/** Current password and a new one (the sign-up rules); the other sessions end when it changes. */
export function ChangePasswordCard() {
  const change = useChangePassword();
  const form = useForm({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(({ currentPassword, newPassword, confirmPassword }) => {
    if (newPassword !== confirmPassword) {
      form.setError('confirmPassword', { message: 'Passwords must match' });
      return;
    }
    return change.mutateAsync({ currentPassword, newPassword }).then(
      (reply) => {
        toast.success(reply.message);
        form.reset();
      },
      (error: unknown) => {
        if (isApiError(error) && error.status === 400 && /current password/i.test(error.message))
          form.setError('currentPassword', { message: error.message });
        else toast.error(errorMessage(error, 'Could not change the password.'));
      },
    );
  });

  return (
    <Card>
      <CardHeader title="Change password" description="Your other sessions are logged out when it changes." />
      <CardBody>
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <Input
            label="Current password"
            type="password"
            revealable
            autoComplete="current-password"
            maxLength={LOGIN_INPUT_MAX}
            error={errors.currentPassword?.message}
            {...form.register('currentPassword')}
          />
          <Input
            label="New password"
            type="password"
            revealable
            autoComplete="new-password"
            maxLength={LOGIN_INPUT_MAX}
            error={errors.newPassword?.message}
            {...form.register('newPassword')}
          />
          <Input
            label="Confirm new password"
            type="password"
            revealable
            autoComplete="new-password"
            maxLength={LOGIN_INPUT_MAX}
            error={errors.confirmPassword?.message}
            {...form.register('confirmPassword')}
          />
          <div className="flex justify-end">
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

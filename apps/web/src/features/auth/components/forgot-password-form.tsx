import { authMessages } from '@gridbot/shared';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { CheckCircleIcon } from '../../../components/ui/icons';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { toast } from '../../../lib/toast';
import { useForgotPassword } from '../api/password-reset';
import { BackToSignIn, EmailAddressInput } from './auth-fields';

const validation = lazyResolver(() =>
  import('../schemas/auth-resolvers').then((m) => m.forgotPasswordResolver),
);

/** docs/spec/02-bots-wallet-account.md §8: 404 'User not found' gets a hint; a rate limit shows its own words; anything else the generic text. */
function forgotPasswordError(error: unknown): string {
  if (isApiError(error) && error.status === 404) return authMessages.userNotFoundHint;
  if (isApiError(error) && error.status === 429) return errorMessage(error, authMessages.resetLinkFailed);
  return authMessages.resetLinkFailed;
}

export function ForgotPasswordForm() {
  const forgot = useForgotPassword();
  const form = useForm({ resolver: validation.resolver, defaultValues: { email: '' } });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((input) =>
    forgot.mutateAsync(input).then(
      () => {
        toast.success(authMessages.resetLinkSent);
      },
      (error: unknown) => {
        toast.error(forgotPasswordError(error));
      },
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} onFocus={() => void validation.preload()} className="space-y-5">
      {forgot.isSuccess ? (
        <div role="status" className="flex gap-3 rounded-lg border border-up/30 bg-up/10 p-3 text-sm text-fg">
          <CheckCircleIcon className="size-5 shrink-0 text-up" />
          <p>{authMessages.resetLinkSent} The link works once and expires in 30 minutes.</p>
        </div>
      ) : null}
      <EmailAddressInput error={errors.email?.message} {...form.register('email')} />
      <Button type="submit" size="lg" fullWidth loading={forgot.isPending}>
        {forgot.isPending ? 'Sending...' : 'Send Reset Link'}
      </Button>
      <BackToSignIn />
    </form>
  );
}

import { authMessages, type SignupInput } from '@gridbot/shared';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { applyServerFieldErrors } from '../../../lib/form-errors';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { safeRedirect } from '../../../lib/redirect';
import { toast } from '../../../lib/toast';
import { useSignup } from '../api/signup';
import { EmailAddressInput, NewPasswordInput } from './auth-fields';

/** What /verifyOtp receives in router state (docs/spec/02-bots-wallet-account.md §3: sign-up data carried to OTP). */
export type SignupState = SignupInput;

const validation = lazyResolver(() => import('../schemas/auth-resolvers').then((m) => m.signupResolver));

const FIELDS = ['email', 'username', 'contactNo', 'password', 'referralId'] as const;

/** Known uniqueness answers go under their field as well as into the toast. */
const FIELD_OF_MESSAGE: Record<string, (typeof FIELDS)[number]> = {
  [authMessages.emailTaken]: 'email',
  [authMessages.usernameTaken]: 'username',
  [authMessages.referralUnknown]: 'referralId',
};

export function SignupForm() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirect = safeRedirect(searchParams.get('redirect'));
  const signup = useSignup();
  const form = useForm({
    resolver: validation.resolver,
    defaultValues: {
      email: '',
      username: '',
      contactNo: '',
      password: '',
      confirmPassword: '',
      referralId: searchParams.get('ref')?.slice(0, 20) ?? '',
    },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async ({ confirmPassword: _confirm, ...input }) => {
    try {
      const response = await signup.mutateAsync(input);
      toast.success(response.message || authMessages.otpSent);
      const state: SignupState = input;
      navigate(redirect ? `/verifyOtp?redirect=${encodeURIComponent(redirect)}` : '/verifyOtp', { state });
    } catch (error) {
      const message = errorMessage(error, 'Sign up failed. Please try again.');
      const field = isApiError(error) ? FIELD_OF_MESSAGE[error.message] : undefined;
      if (field) form.setError(field, { type: 'server', message }, { shouldFocus: true });
      else applyServerFieldErrors(error, form.setError, FIELDS);
      toast.error(message);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} onFocus={() => void validation.preload()} className="space-y-4">
      <EmailAddressInput error={errors.email?.message} {...form.register('email')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Input
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={20}
          placeholder="satoshi_n"
          error={errors.username?.message}
          {...form.register('username')}
        />
        <Input
          label="Contact No"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          maxLength={16}
          placeholder="+4915112345678"
          error={errors.contactNo?.message}
          {...form.register('contactNo')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <NewPasswordInput
          label="Password"
          placeholder="At least 6 characters"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <NewPasswordInput
          label="Confirm Password"
          placeholder="Repeat the password"
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
      </div>
      <Input
        label="Referral ID (optional)"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={20}
        placeholder="Who invited you?"
        error={errors.referralId?.message}
        {...form.register('referralId')}
      />
      <Button type="submit" size="lg" fullWidth loading={signup.isPending}>
        {signup.isPending ? 'Signing up...' : 'Sign Up'}
      </Button>
      <p className="text-center text-sm text-muted">
        Already have an account?{' '}
        <Link
          to={redirect ? `/?redirect=${encodeURIComponent(redirect)}` : '/'}
          className="font-semibold text-primary hover:underline"
        >
          Sign In
        </Link>
      </p>
    </form>
  );
}

import { authMessages, LOGIN_INPUT_MAX } from '@gridbot/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { safeRedirect } from '../../../lib/redirect';
import { toast } from '../../../lib/toast';
import { useLogin } from '../api/login';

const validation = lazyResolver(() => import('../schemas/auth-resolvers').then((m) => m.loginResolver));

/** docs/spec/01-core-screens.md Login: e-mail or username and password; on success the `redirect` path or the dashboard. */
interface LoginFormProps {
  /** Called when valid credentials go to the server: the screen uses it to fetch what comes next. */
  onSubmitting?: () => void;
}

export function LoginForm({ onSubmitting }: LoginFormProps = {}) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirect = safeRedirect(searchParams.get('redirect'));
  const login = useLogin();
  // With two-factor sign-in on, the server asks for the code after a right password: the form grows a field.
  const [needsCode, setNeedsCode] = useState(false);
  const form = useForm({
    resolver: validation.resolver,
    defaultValues: { email: '', password: '', code: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(({ code, ...input }) => {
    onSubmitting?.();
    return login.mutateAsync(code ? { ...input, code } : input).then(
      () => navigate(redirect ?? '/dashboard', { replace: true }),
      (error: unknown) => {
        if (isApiError(error) && error.body?.twoFactorRequired === true) {
          if (needsCode) form.setError('code', { message: error.message });
          else toast.info(error.message);
          setNeedsCode(true);
          return;
        }
        toast.error(errorMessage(error, authMessages.loginFailed));
      },
    );
  });

  const withRedirect = (path: string) =>
    redirect ? `${path}?redirect=${encodeURIComponent(redirect)}` : path;

  return (
    <form noValidate onSubmit={onSubmit} onFocus={() => void validation.preload()} className="space-y-5">
      <Input
        label="Email Address or Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={LOGIN_INPUT_MAX}
        placeholder="you@example.com"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <Input
        label="Password"
        type="password"
        revealable
        autoComplete="current-password"
        maxLength={LOGIN_INPUT_MAX}
        placeholder="Your password"
        error={errors.password?.message}
        labelAside={
          <Link to="/forgetpassword" className="text-xs font-semibold text-primary hover:underline">
            Forgot password?
          </Link>
        }
        {...form.register('password')}
      />
      {needsCode ? (
        <Input
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          maxLength={11}
          placeholder="6-digit code or recovery code"
          hint="From your authenticator app, or one of your recovery codes."
          className="font-mono tracking-widest"
          error={errors.code?.message}
          {...form.register('code')}
        />
      ) : null}
      <Button type="submit" size="lg" fullWidth loading={login.isPending}>
        {login.isPending ? 'Loging in...' : 'LogIn'}
      </Button>
      <p className="text-center text-sm text-muted">
        Don&apos;t have an account?{' '}
        <Link to={withRedirect('/signup')} className="font-semibold text-primary hover:underline">
          Sign up
        </Link>
      </p>
    </form>
  );
}

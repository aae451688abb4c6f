import { authMessages, OTP_RESEND_WAIT_SECONDS } from '@gridbot/shared';
import { useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { lazyResolver } from '../../../lib/lazy-resolver';
import { safeRedirect } from '../../../lib/redirect';
import { toast } from '../../../lib/toast';
import { useResendOtp, useVerifyOtp } from '../api/verify-otp';
import { useCountdown } from '../hooks/use-countdown';
import { OTP_DIGITS, OtpInput } from './otp-input';
import type { SignupState } from './signup-form';

/** The code part of the verify-otp payload (the rest comes from the sign-up state), validated by a lazy chunk. */
const validation = lazyResolver(() => import('../schemas/auth-resolvers').then((m) => m.otpResolver));

interface VerifyOtpFormProps {
  signup: SignupState;
}

/** docs/spec/02-bots-wallet-account.md Verify OTP: six digits, verified automatically once complete; Resend after a 30 s countdown. */
export function VerifyOtpForm({ signup }: VerifyOtpFormProps) {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const verify = useVerifyOtp();
  const resend = useResendOtp();
  const { secondsLeft, restart } = useCountdown(OTP_RESEND_WAIT_SECONDS);
  const inputRef = useRef<HTMLInputElement>(null);
  const form = useForm({ resolver: validation.resolver, defaultValues: { otp: '' } });

  const onSubmit = form.handleSubmit(async ({ otp }) => {
    try {
      await verify.mutateAsync({ ...signup, otp, referralId: signup.referralId ?? null });
      toast.success(authMessages.otpVerified);
      navigate(safeRedirect(searchParams.get('redirect')) ?? '/dashboard', { replace: true });
    } catch (error) {
      const message =
        isApiError(error) && error.status === 400
          ? errorMessage(error, authMessages.otpInvalid)
          : errorMessage(error, authMessages.otpVerifyFailed);
      toast.error(message);
      form.reset({ otp: '' });
      form.setError('otp', { type: 'server', message });
      // The input was disabled while verifying; focus once it is enabled again.
      setTimeout(() => inputRef.current?.focus(), 0);
    }
  });

  const onResend = async () => {
    try {
      const response = await resend.mutateAsync({ email: signup.email, username: signup.username });
      toast.success(response.message || authMessages.otpResent);
      restart(OTP_RESEND_WAIT_SECONDS);
    } catch (error) {
      const retryAfter = isApiError(error) ? Number(error.body?.retryAfterSeconds) : Number.NaN;
      if (Number.isFinite(retryAfter) && retryAfter > 0) {
        restart(Math.ceil(retryAfter));
        toast.error(errorMessage(error, authMessages.otpResendWait(Math.ceil(retryAfter))));
      } else {
        toast.error(authMessages.otpResendFailed);
      }
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} onFocus={() => void validation.preload()} className="space-y-5">
      <Controller
        control={form.control}
        name="otp"
        render={({ field, fieldState }) => (
          <OtpInput
            ref={(element) => {
              field.ref(element);
              inputRef.current = element;
            }}
            name={field.name}
            value={field.value}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
            disabled={verify.isPending}
            autoFocus
            onChange={(value) => {
              const completed = value.length === OTP_DIGITS && field.value.length !== OTP_DIGITS;
              field.onChange(value);
              if (completed && !verify.isPending) void onSubmit();
            }}
          />
        )}
      />
      <Button type="submit" size="lg" fullWidth loading={verify.isPending}>
        {verify.isPending ? 'Verifying...' : 'Verify'}
      </Button>
      <div className="flex flex-wrap items-center justify-center gap-x-1.5 text-sm text-muted">
        <span>Didn&apos;t get the code?</span>
        <button
          type="button"
          onClick={onResend}
          disabled={secondsLeft > 0 || resend.isPending}
          className="rounded font-semibold text-primary enabled:hover:underline disabled:cursor-not-allowed disabled:text-muted"
        >
          {resend.isPending ? 'Sending...' : 'Resend OTP'}
        </button>
        {secondsLeft > 0 ? (
          <span aria-live="polite" className="tabular-nums">
            in {secondsLeft}s
          </span>
        ) : null}
      </div>
    </form>
  );
}

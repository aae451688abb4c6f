import {
  forgotPasswordInputSchema,
  loginInputSchema,
  resetPasswordFormSchema,
  signupFormSchema,
  verifyOtpInputSchema,
} from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';

// The auth forms' validation, in a chunk of its own that the forms load on first focus (lib/lazy-resolver):
// zod and the shared schemas would otherwise be a fifth of a sign-in screen's script.
export const loginResolver = zodResolver(loginInputSchema);
export const signupResolver = zodResolver(signupFormSchema);
export const resetPasswordResolver = zodResolver(resetPasswordFormSchema);
export const forgotPasswordResolver = zodResolver(forgotPasswordInputSchema);
export const otpResolver = zodResolver(verifyOtpInputSchema.pick({ otp: true }));

import { authMessages } from '@gridbot/shared';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import SignupRoute from '../../../app/routes/signup';
import VerifyOtpRoute from '../../../app/routes/verify-otp';
import { json, mockApi, testUser } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';
import { sanitizeOtp } from './otp-input';

const signupState = {
  email: 'alice@example.com',
  username: 'alice',
  contactNo: '4915112345678',
  password: 'secret1',
  referralId: 'BOB42',
};

const verified = {
  success: true,
  message: 'Account created',
  token: 'fresh-token',
  accessToken: 'fresh-token',
  user: testUser,
};

describe('sanitizeOtp', () => {
  it('keeps only digits and at most six of them', () => {
    expect(sanitizeOtp('12a-3 4b')).toBe('1234');
    expect(sanitizeOtp('123 456 789')).toBe('123456');
    expect(sanitizeOtp('abc')).toBe('');
  });
});

describe('verify OTP page', () => {
  it('sends the user to sign-up when no e-mail came with the page', async () => {
    mockApi();
    renderFeature('/verifyOtp', <VerifyOtpRoute />, {
      routes: [{ path: '/signup', element: <SignupRoute /> }],
    });
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    expect(currentUrl()).toBe('/signup');
  });

  it('strips non-digits as the user types', async () => {
    mockApi();
    const { user } = renderFeature('/verifyOtp', <VerifyOtpRoute />, { state: signupState });
    const input = await screen.findByLabelText('Verification code');
    await user.type(input, 'a1b2 c3');
    expect(input).toHaveValue('123');
  });

  it('verifies automatically at six digits, stores the session and goes to the redirect path', async () => {
    const api = mockApi({ 'POST /api/verify-otp': () => json(verified) });
    const { user } = renderFeature('/verifyOtp?redirect=/sip', <VerifyOtpRoute />, { state: signupState });
    await user.type(await screen.findByLabelText('Verification code'), '12-34-56');

    expect(await screen.findByText('/sip page')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/verify-otp')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/verify-otp')[0]?.body).toEqual({ ...signupState, otp: '123456' });
    expect(localStorage.getItem('token')).toBe('fresh-token');
    expect(await screen.findByText(authMessages.otpVerified)).toBeInTheDocument();
  });

  it('goes to the dashboard without a redirect', async () => {
    mockApi({ 'POST /api/verify-otp': () => json(verified) });
    const { user } = renderFeature('/verifyOtp', <VerifyOtpRoute />, { state: signupState });
    await user.type(await screen.findByLabelText('Verification code'), '123456');
    await waitFor(() => expect(currentUrl()).toBe('/dashboard'));
  });

  it('shows the server message for a wrong code and lets the user try again', async () => {
    mockApi({ 'POST /api/verify-otp': () => json({ message: authMessages.otpInvalid }, 400) });
    const { user } = renderFeature('/verifyOtp', <VerifyOtpRoute />, { state: signupState });
    const input = await screen.findByLabelText('Verification code');
    await user.type(input, '999999');

    expect(await screen.findAllByText(authMessages.otpInvalid)).not.toHaveLength(0);
    await waitFor(() => expect(input).toHaveValue(''));
    expect(input).toBeEnabled();
    expect(currentUrl()).toBe('/verifyOtp');
  });

  it('keeps Resend disabled for 30 s, then resends and counts down again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockApi({
      'POST /api/resend-otp': () => json({ success: true, message: authMessages.otpResent }),
    });
    const { user } = renderFeature('/verifyOtp', <VerifyOtpRoute />, {
      state: signupState,
      userEventOptions: { advanceTimers: vi.advanceTimersByTime },
    });

    const resend = await screen.findByRole('button', { name: 'Resend OTP' });
    expect(resend).toBeDisabled();
    expect(screen.getByText(/in 30s/)).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getByText(/in 20s/)).toBeInTheDocument();
    expect(resend).toBeDisabled();

    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(resend).toBeEnabled();
    expect(screen.queryByText(/in \d+s/)).not.toBeInTheDocument();

    await user.click(resend);
    expect(await screen.findByText(authMessages.otpResent)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/resend-otp')[0]?.body).toEqual({
      email: signupState.email,
      username: 'alice',
    });
    expect(screen.getByRole('button', { name: 'Resend OTP' })).toBeDisabled();
    expect(screen.getByText(/in 30s/)).toBeInTheDocument();
  });

  it('follows the server wait when a resend is refused with 429', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({
      'POST /api/resend-otp': () =>
        json({ message: authMessages.otpResendWait(12), retryAfterSeconds: 12 }, 429),
    });
    const { user } = renderFeature('/verifyOtp', <VerifyOtpRoute />, {
      state: signupState,
      userEventOptions: { advanceTimers: vi.advanceTimersByTime },
    });
    const resend = await screen.findByRole('button', { name: 'Resend OTP' });
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await user.click(resend);
    expect(await screen.findByText(authMessages.otpResendWait(12))).toBeInTheDocument();
    expect(screen.getByText(/in 12s/)).toBeInTheDocument();
  });
});

import { authMessages } from '@gridbot/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import SignupRoute from '../../../app/routes/signup';
import VerifyOtpRoute from '../../../app/routes/verify-otp';
import { json, mockApi } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';

async function fillSignup(user: ReturnType<typeof renderFeature>['user'], confirm = 'secret12') {
  await user.type(await screen.findByLabelText('Email Address'), 'bob@example.com');
  await user.type(screen.getByLabelText('Username'), 'bob_1');
  await user.type(screen.getByLabelText('Contact No'), '+4915112345678');
  await user.type(screen.getByLabelText('Password'), 'secret12');
  await user.type(screen.getByLabelText('Confirm Password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Sign Up' }));
}

describe('sign-up form', () => {
  it('prefills the referral ID from ?ref=', async () => {
    mockApi();
    renderFeature('/signup?ref=ALICE1', <SignupRoute />);
    expect(await screen.findByLabelText('Referral ID (optional)')).toHaveValue('ALICE1');
  });

  it('requires the confirmation to match', async () => {
    const api = mockApi();
    const { user } = renderFeature('/signup', <SignupRoute />);
    await fillSignup(user, 'different');
    expect(await screen.findByText(authMessages.passwordsMustMatch)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/signup')).toHaveLength(0);
  });

  it('sends the fields without the confirmation and carries them to /verifyOtp', async () => {
    const api = mockApi({ 'POST /api/signup': () => json({ success: true, message: authMessages.otpSent }) });
    const { user } = renderFeature('/signup?ref=ALICE1', <SignupRoute />, {
      routes: [{ path: '/verifyOtp', element: <VerifyOtpRoute /> }],
    });
    await fillSignup(user);

    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(currentUrl()).toBe('/verifyOtp');
    expect(screen.getByText('bob@example.com')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/signup')[0]?.body).toEqual({
      email: 'bob@example.com',
      username: 'bob_1',
      contactNo: '+4915112345678',
      password: 'secret12',
      referralId: 'ALICE1',
    });
  });

  it('puts a taken e-mail under the e-mail field', async () => {
    mockApi({ 'POST /api/signup': () => json({ message: authMessages.emailTaken }, 409) });
    const { user } = renderFeature('/signup', <SignupRoute />);
    await fillSignup(user);
    await waitFor(() =>
      expect(screen.getByLabelText('Email Address')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(screen.getAllByText(authMessages.emailTaken).length).toBeGreaterThan(0);
    expect(currentUrl()).toBe('/signup');
  });
});

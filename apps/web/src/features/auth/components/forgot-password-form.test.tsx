import { authMessages } from '@gridbot/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ForgetPasswordRoute from '../../../app/routes/forget-password';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

async function submit(user: ReturnType<typeof renderFeature>['user'], email: string) {
  await user.type(await screen.findByLabelText('Email Address'), email);
  await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
}

describe('forgot password form', () => {
  it('validates the e-mail with the spec messages', async () => {
    mockApi();
    const { user } = renderFeature('/forgetpassword', <ForgetPasswordRoute />);
    await user.click(await screen.findByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText(authMessages.emailRequired)).toBeInTheDocument();
    await submit(user, 'not-an-email');
    expect(await screen.findByText(authMessages.emailInvalid)).toBeInTheDocument();
  });

  it("maps 404 'User not found' to the spec's hint", async () => {
    mockApi({ 'POST /api/forgot-password': () => json({ message: 'User not found' }, 404) });
    const { user } = renderFeature('/forgetpassword', <ForgetPasswordRoute />);
    await submit(user, 'nobody@example.com');
    expect(await screen.findByText(authMessages.userNotFoundHint)).toBeInTheDocument();
  });

  it('confirms a sent link', async () => {
    mockApi({ 'POST /api/forgot-password': () => json({ success: true, message: 'sent' }) });
    const { user } = renderFeature('/forgetpassword', <ForgetPasswordRoute />);
    await submit(user, 'alice@example.com');
    expect((await screen.findAllByText(authMessages.resetLinkSent, { exact: false })).length).toBeGreaterThan(
      0,
    );
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/');
  });

  it('shows the generic failure for anything else', async () => {
    mockApi({ 'POST /api/forgot-password': () => json({ message: 'boom' }, 500) });
    const { user } = renderFeature('/forgetpassword', <ForgetPasswordRoute />);
    await submit(user, 'alice@example.com');
    expect(await screen.findByText(authMessages.resetLinkFailed)).toBeInTheDocument();
  });
});

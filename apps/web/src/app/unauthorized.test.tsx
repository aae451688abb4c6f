import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../testing/mock-api';
import { currentUrl, renderApp } from '../testing/render-app';

describe('global 401 handling (docs/spec/01-core-screens.md §4)', () => {
  it('ends a revoked session found by /api/me and returns to the page after the next login', async () => {
    let revoked = true;
    mockApi({
      'GET /api/me': () => (revoked ? json({ message: 'Session expired' }, 401) : json({ user: {} })),
      'POST /api/cyborxlogin': () => {
        revoked = false;
        return json({
          success: true,
          message: 'ok',
          token: 'new',
          accessToken: 'new',
          user: {
            id: '1',
            email: 'a@b.co',
            username: 'alice',
            contactNo: '1',
            userCode: 'X',
            role: 'user',
            usdtRewardToken: '0',
          },
        });
      },
    });
    const { user } = renderApp('/sip', { signedIn: true });

    expect(await screen.findByRole('heading', { name: 'Log in to your account' })).toBeInTheDocument();
    expect(currentUrl()).toBe('/?redirect=/sip');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();

    await user.type(screen.getByLabelText('Email Address or Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'LogIn' }));
    await waitFor(() => expect(currentUrl()).toBe('/sip'));
    expect(await screen.findByRole('heading', { name: 'Start New SIP' })).toBeInTheDocument();
  });

  it('ends the session when a background call of the shell answers 401', async () => {
    mockApi({ 'GET /api/email': () => json({ message: 'Session expired' }, 401) });
    renderApp('/sip', { signedIn: true });
    await waitFor(() => expect(currentUrl()).toBe('/?redirect=/sip'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('removes stale user data on a 401 at the login page, and user data left without a token', async () => {
    mockApi({ 'POST /api/cyborxlogin': () => json({ message: 'Invalid credentials' }, 401) });
    localStorage.setItem('user', JSON.stringify({ id: '1', email: 'a@b.co' }));
    const { user } = renderApp('/');
    await user.type(await screen.findByLabelText('Email Address or Username'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(screen.getByRole('button', { name: 'LogIn' }));
    await waitFor(() => expect(localStorage.getItem('user')).toBeNull());
    expect(localStorage.getItem('token')).toBeNull();
    expect(currentUrl()).toBe('/');
  });
});

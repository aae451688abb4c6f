import { authMessages, securityMessages } from '@gridbot/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import LoginRoute from '../../../app/routes/login';
import { deferred, json, mockApi, testUser } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';

const authResponse = {
  success: true,
  message: 'Login successful',
  token: 'new-token',
  accessToken: 'new-token',
  user: testUser,
};

function renderLogin(path = '/') {
  return renderFeature(path, <LoginRoute />);
}

async function fillAndSubmit(user: ReturnType<typeof renderLogin>['user'], login: string, password: string) {
  await user.type(await screen.findByLabelText('Email Address or Username'), login);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'LogIn' }));
}

describe('login form', () => {
  it('shows the schema messages and sends nothing when the fields are empty', async () => {
    const api = mockApi();
    const { user } = renderLogin();
    expect(await screen.findByRole('heading', { name: 'Log in to your account' })).toBeInTheDocument();
    expect(screen.getByText('Enter your email address and password to log in.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'LogIn' }));

    expect(await screen.findByText(authMessages.loginIdRequired)).toBeInTheDocument();
    expect(screen.getByText(authMessages.passwordRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/cyborxlogin')).toHaveLength(0);
  });

  it('rejects a password shorter than 6 characters with the spec message', async () => {
    mockApi();
    const { user } = renderLogin();
    await fillAndSubmit(user, 'alice', '12345');
    expect(await screen.findByText('Password must be at least 6 characters long')).toBeInTheDocument();
  });

  it('shows and hides the password', async () => {
    mockApi();
    const { user } = renderLogin();
    const password = await screen.findByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('disables the button and reads "Loging in..." while busy, then stores the session and opens the dashboard', async () => {
    const reply = deferred();
    const api = mockApi({ 'POST /api/cyborxlogin': () => reply.promise });
    const { user } = renderLogin();
    await fillAndSubmit(user, 'alice', 'secret1');

    const busy = await screen.findByRole('button', { name: 'Loging in...' });
    expect(busy).toBeDisabled();
    expect(api.callsTo('POST', '/api/cyborxlogin')[0]?.body).toEqual({ email: 'alice', password: 'secret1' });

    reply.resolve(json(authResponse));
    expect(await screen.findByText('/dashboard page')).toBeInTheDocument();
    expect(currentUrl()).toBe('/dashboard');
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'alice' });
  });

  it('goes to the same-site redirect path after login', async () => {
    mockApi({ 'POST /api/cyborxlogin': () => json(authResponse) });
    const { user } = renderLogin('/?redirect=/sip');
    await fillAndSubmit(user, 'alice', 'secret1');
    expect(await screen.findByText('/sip page')).toBeInTheDocument();
    expect(currentUrl()).toBe('/sip');
  });

  it.each(['//evil.example/steal', '/\\evil.example', 'https://evil.example'])(
    'ignores the off-site redirect %s and opens the dashboard',
    async (redirect) => {
      mockApi({ 'POST /api/cyborxlogin': () => json(authResponse) });
      const { user } = renderLogin(`/?redirect=${encodeURIComponent(redirect)}`);
      await fillAndSubmit(user, 'alice', 'secret1');
      await waitFor(() => expect(currentUrl()).toBe('/dashboard'));
    },
  );

  it("toasts the server's message when the login is refused", async () => {
    mockApi({
      'POST /api/cyborxlogin': () => json({ message: authMessages.invalidCredentials }, 401),
    });
    const { user } = renderLogin();
    await fillAndSubmit(user, 'alice', 'wrong-password');
    expect(await screen.findByText(authMessages.invalidCredentials)).toBeInTheDocument();
    expect(currentUrl()).toBe('/');
    expect(screen.getByRole('button', { name: 'LogIn' })).toBeEnabled();
  });

  it("toasts 'Login failed. Please try again.' when the server gives no message", async () => {
    mockApi({ 'POST /api/cyborxlogin': () => new Response('', { status: 502 }) });
    const { user } = renderLogin();
    await fillAndSubmit(user, 'alice', 'secret1');
    expect(await screen.findByText('Login failed. Please try again.')).toBeInTheDocument();
  });

  it('asks for the authenticator code after a right password, and sends it with the password', async () => {
    const api = mockApi({
      'POST /api/cyborxlogin': (call) =>
        (call.body as { code?: string }).code === '123456'
          ? json(authResponse)
          : json({ message: securityMessages.codeRequired, twoFactorRequired: true }, 401),
    });
    const { user } = renderLogin();
    await fillAndSubmit(user, 'alice', 'secret1');
    const code = await screen.findByLabelText('Authentication code');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'LogIn' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard'));
    const calls = api.callsTo('POST', '/api/cyborxlogin');
    expect(calls.map((c) => c.body)).toEqual([
      { email: 'alice', password: 'secret1' },
      { email: 'alice', password: 'secret1', code: '123456' },
    ]);
  });
});

import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../testing/mock-api';
import { currentUrl, renderApp } from '../../testing/render-app';

describe('guarded layout', () => {
  it('sends a visitor without a token to the login page with the path to come back to', async () => {
    const api = mockApi();
    renderApp('/running-bot/42?tab=orders');
    expect(await screen.findByRole('heading', { name: 'Log in to your account' })).toBeInTheDocument();
    expect(currentUrl()).toBe(`/?redirect=/running-bot/42${encodeURIComponent('?tab=orders')}`);
    expect(new URLSearchParams(window.location.search).get('redirect')).toBe('/running-bot/42?tab=orders');
    expect(api.callsTo('GET', '/api/me')).toHaveLength(0);
  });

  it('uses the plain form /?redirect=/dashboard', async () => {
    mockApi();
    renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Log in to your account' });
    expect(currentUrl()).toBe('/?redirect=/dashboard');
  });

  it('shows the screen inside the shell for a signed-in user and checks the token with /api/me', async () => {
    const api = mockApi();
    renderApp('/sip', { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Start New SIP' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', '/api/me')).toHaveLength(1));
    expect(api.callsTo('GET', '/api/me')[0]?.headers.authorization).toBe('Bearer test-token');
  });

  it('hides the subscription screens and entries when the flag is off', async () => {
    mockApi();
    renderApp('/subscription', { signedIn: true, subscriptionEnabled: false });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('shows the 404 page for an unknown path', async () => {
    mockApi();
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('logs out: clears the session, revokes the token and returns to the login page', async () => {
    const api = mockApi({ 'POST /api/logout': () => json({ message: 'Logged out.' }) });
    const { user } = renderApp('/dashboard', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: /^Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByRole('heading', { name: 'Log in to your account' })).toBeInTheDocument();
    expect(currentUrl()).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    await waitFor(() => expect(api.callsTo('POST', '/api/logout')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/logout')[0]?.headers.authorization).toBe('Bearer test-token');
  });
});

import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../testing/render-app';
import { platformApi } from '../testing/platform-api';

describe('subscription flag', () => {
  it.each(['/subscription', '/Wallet-deposit', '/withdraw', '/referral-program'])(
    'answers %s with not found when VITE_SUBSCRIPTION_ENABLED is not true',
    async (path) => {
      const api = platformApi();
      renderApp(path, { signedIn: true, subscriptionEnabled: false });
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
      expect(api.calls.filter((call) => call.path.startsWith('/platform'))).toHaveLength(0);
    },
  );

  it('hides Subscription and My Referral with the flag off and shows them with it on', async () => {
    platformApi();
    const off = renderApp('/sip', { signedIn: true, subscriptionEnabled: false });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Subscription' })).not.toBeInTheDocument();
    await off.user.click(screen.getByRole('button', { name: /^Account menu/ }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'My Referral' })).not.toBeInTheDocument();
    off.unmount();

    const on = renderApp('/sip', { signedIn: true });
    const navOn = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(navOn).getByRole('link', { name: 'Subscription' })).toHaveAttribute(
      'href',
      '/subscription',
    );
    await on.user.click(screen.getByRole('button', { name: /^Account menu/ }));
    expect(await screen.findByRole('menuitem', { name: 'My Referral' })).toHaveAttribute(
      'href',
      '/referral-program',
    );
  });
});

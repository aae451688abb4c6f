import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../testing/mock-api';
import { currentUrl, renderApp } from '../../../testing/render-app';

// jsdom has no canvas: pages with the Market Overview chart (Start Cycle) render without it here.
vi.mock('../../market/components/candle-chart', () => ({ CandleChart: () => null }));

afterEach(() => {
  vi.useRealTimers();
});

describe('app shell', () => {
  it('lists the sidebar entries of the spec, Subscription only with the flag', async () => {
    mockApi();
    renderApp('/sip', { signedIn: true });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    for (const name of [
      'Dashboard',
      'Create Strategy',
      'My Strategies',
      'Scalping',
      'Start BOT',
      'Grid',
      'Start Cycle',
      'Start SIP',
      'Copy BOTs',
      'Subscription',
    ]) {
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    }
    // The SIP entry point opens its title page, marked as the current one.
    expect(within(nav).getByRole('link', { name: 'Start SIP' })).toHaveAttribute('href', '/sip');
    expect(within(nav).getByRole('link', { name: 'Start SIP' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { level: 1, name: 'Start New SIP' })).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: /Multigrid/ })).toHaveTextContent('PRO');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('drops Subscription and My Referral when the flag is off', async () => {
    mockApi();
    const { user } = renderApp('/sip', { signedIn: true, subscriptionEnabled: false });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Subscription' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Account menu/ }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'My Referral' })).not.toBeInTheDocument();
  });

  it('shows the polled e-mail and username in the profile menu and closes it with Escape', async () => {
    mockApi({ 'GET /api/email': () => json({ email: 'new@example.com', username: 'alice' }) });
    const { user } = renderApp('/sip', { signedIn: true });
    // Opened from the keyboard, the menu takes focus on its first item (also when its code loads on that press).
    (await screen.findByRole('button', { name: /^Account menu/ })).focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(within(menu).getByText('new@example.com')).toBeInTheDocument());
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['My Wallet', 'API Setting', 'Security', 'My Strategies', 'My Referral', 'History', 'Logout']);
    expect(within(menu).getByRole('menuitem', { name: 'My Wallet' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'API Setting' })).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Account menu/ })).toHaveFocus();
  });

  it('closes the profile menu on a click outside', async () => {
    mockApi();
    const { user } = renderApp('/sip', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: /^Account menu/ }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    await user.click(screen.getByRole('heading', { name: 'Start New SIP' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('toggles the theme and keeps it in localStorage', async () => {
    mockApi();
    const { user } = renderApp('/sip', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it("polls the user's own strategy names", async () => {
    const api = mockApi({ 'GET /api/mystratagies': () => json({ strategies: [] }) });
    renderApp('/sip', { signedIn: true });
    await waitFor(() => expect(api.callsTo('GET', '/api/mystratagies').length).toBeGreaterThan(0));
  });

  it('links the wallet and help icons', async () => {
    mockApi();
    const { user } = renderApp('/sip', { signedIn: true });
    expect(await screen.findByRole('link', { name: 'My Wallet' })).toHaveAttribute('href', '/mywallet');
    // Help opens the members' help page inside the shell, with the contact form prefilled.
    await user.click(await screen.findByRole('link', { name: 'Help' }));
    await waitFor(() => expect(currentUrl()).toBe('/help'));
    expect(await screen.findByRole('heading', { name: 'Help' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com'));
    expect(screen.queryByText('Already have an account? Sign In')).not.toBeInTheDocument();
  });

  it('shows the ticker tape with pair, price and coloured change', async () => {
    mockApi({
      'GET /api/tickers': () =>
        json({ source: 'sim', tickers: [{ symbol: 'ETHUSDT', price: '3421.5', changePct: '-1.2' }] }),
    });
    renderApp('/sip', { signedIn: true });
    const tape = await screen.findByRole('region', { name: 'Market prices' });
    await waitFor(() => expect(within(tape).getAllByText('ETH/USDT')[0]).toBeInTheDocument());
    expect(within(tape).getAllByText('3,421.50')[0]).toBeInTheDocument();
    expect(within(tape).getAllByText(/-1\.20%/)[0]).toHaveClass('text-down');
    expect(within(tape).getByText('Simulated')).toBeInTheDocument();
  });

  it('shows the prices once and still, then loops them once the page has settled', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({
      'GET /api/tickers': () =>
        json({ source: 'sim', tickers: [{ symbol: 'ETHUSDT', price: '3421.5', changePct: '-1.2' }] }),
    });
    renderApp('/sip', { signedIn: true });
    const tape = await screen.findByRole('region', { name: 'Market prices' });
    await waitFor(() => expect(within(tape).getByText('ETH/USDT')).toBeInTheDocument());
    const track = within(tape).getByRole('list').parentElement;
    expect(track).not.toHaveClass('animate-marquee');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    // The copy that makes the loop seamless is hidden from readers: they still find one list.
    expect(within(tape).getAllByText('ETH/USDT')).toHaveLength(2);
    expect(within(tape).getAllByRole('list')).toHaveLength(1);
    expect(track).toHaveClass('animate-marquee');
  });
});

describe('mobile navigation drawer', () => {
  it('opens from the hamburger, takes focus, and closes with Escape back to the hamburger', async () => {
    mockApi();
    const { user } = renderApp('/sip', { signedIn: true });
    const hamburger = await screen.findByRole('button', { name: 'Open navigation' });
    await user.click(hamburger);
    const drawer = await screen.findByRole('dialog', { name: 'Navigation' });
    await waitFor(() =>
      expect(within(drawer).getByRole('button', { name: 'Close navigation' })).toHaveFocus(),
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Navigation' })).not.toBeInTheDocument());
    expect(hamburger).toHaveFocus();
  });

  it('closes when a page is chosen', async () => {
    mockApi();
    const { user } = renderApp('/sip', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    const drawer = await screen.findByRole('dialog', { name: 'Navigation' });
    await user.click(within(drawer).getByRole('link', { name: 'Start Cycle' }));
    await waitFor(() => expect(currentUrl()).toBe('/cycle'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Navigation' })).not.toBeInTheDocument());
  });
});

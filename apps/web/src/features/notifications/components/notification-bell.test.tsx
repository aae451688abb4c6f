import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../testing/mock-api';
import { currentUrl, renderApp } from '../../../testing/render-app';

vi.mock('../../market/components/candle-chart', () => ({ CandleChart: () => null }));

const botId = '11111111-1111-4111-8111-111111111111';
const items = [
  {
    id: '2',
    type: 'bot_stopped',
    title: 'Bot stopped (stoploss, profit book, liquidation)',
    body: 'Your ETHUSDT Spot bot stopped: its stoploss price was reached.',
    botId,
    botType: 'multigrid',
    createdAt: '2026-03-01T10:00:00.000Z',
    read: false,
  },
  {
    id: '1',
    type: 'deposit_credited',
    title: 'Deposit credited',
    body: 'A deposit of 50 USDT was credited.',
    botId: null,
    botType: null,
    createdAt: '2026-03-01T09:00:00.000Z',
    read: true,
  },
];

describe('notification bell', () => {
  it('shows the unread count and lists events linking to their bot', async () => {
    const api = mockApi({
      'GET /api/notifications': () => json({ unread: 1, items }),
      'POST /api/notifications/read': () => json({ unread: 0 }),
    });
    const { user } = renderApp('/sip', { signedIn: true });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    const links = within(panel)
      .getAllByRole('link')
      .filter((l) => l.textContent !== 'Settings');
    expect(links.map((l) => l.getAttribute('href'))).toEqual([`/running-bot/${botId}`, '/Wallet-deposit']);
    expect(links[0]).toHaveTextContent('Unread: Bot stopped');
    await user.click(links[0]!);
    await waitFor(() => expect(currentUrl()).toBe(`/running-bot/${botId}`));
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/notifications/read')[0]?.body).toEqual({ ids: ['2'] }),
    );
  });

  it('marks everything read and links to the settings page', async () => {
    const api = mockApi({
      'GET /api/notifications': () => json({ unread: 1, items }),
      'POST /api/notifications/read': () => json({ unread: 0 }),
    });
    const { user } = renderApp('/sip', { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/notifications/read')[0]?.body).toEqual({}));
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(currentUrl()).toBe('/notifications'));
  });

  it('moves focus into the panel, and Escape closes it and gives focus back to the bell', async () => {
    mockApi({ 'GET /api/notifications': () => json({ unread: 1, items }) });
    const { user } = renderApp('/sip', { signedIn: true });
    const standIn = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(standIn).toHaveAttribute('aria-expanded', 'false');
    await user.click(standIn);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    // The panel's code replaced the stand-in bell with the popover's own, of the same name.
    const bell = screen.getByRole('button', { name: 'Notifications, 1 unread' });
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(panel).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument(),
    );
    expect(bell).toHaveFocus();
    expect(bell).toHaveAttribute('aria-expanded', 'false');
  });
});

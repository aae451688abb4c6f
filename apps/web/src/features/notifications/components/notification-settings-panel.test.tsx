import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import NotificationsRoute from '../../../app/routes/notifications';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

const settings = {
  routing: { bot_stopped: ['email'] },
  email: 'demo@gridbot.local',
  telegram: { available: true, linked: false, botUsername: null },
  webhookUrl: null,
  webhookSecret: null,
  health: {
    email: { failing: false, lastError: null },
    telegram: { failing: false, lastError: null },
    webhook: { failing: false, lastError: null },
  },
};

describe('notification routing table', () => {
  it('has a row per event with a labelled checkbox per channel, and saves what is ticked', async () => {
    const api = mockApi({
      'GET /api/notifications': () => json({ unread: 0, items: [] }),
      'GET /api/notifications/settings': () => json(settings),
      'PUT /api/notifications/settings': () => json(settings),
    });
    const { user } = renderFeature('/notifications', <NotificationsRoute />, { signedIn: true });
    const table = await screen.findByRole('table', { name: 'What reaches you' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Event', 'E-mail', 'Telegram', 'Webhook']);
    expect(within(table).getByRole('rowheader', { name: 'Bot paused' })).toBeInTheDocument();

    // A security event is always e-mailed; an unlinked channel cannot be chosen.
    const forced = within(table).getByRole('checkbox', { name: 'Login from a new device by E-mail' });
    expect(forced).toBeChecked();
    expect(forced).toBeDisabled();
    expect(within(table).getByRole('checkbox', { name: 'Bot paused by Telegram' })).toBeDisabled();
    expect(
      within(table).getByRole('checkbox', {
        name: 'Bot stopped (stoploss, profit book, liquidation) by E-mail',
      }),
    ).toBeChecked();

    await user.click(within(table).getByRole('checkbox', { name: 'Bot paused by E-mail' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(api.callsTo('PUT', '/api/notifications/settings')[0]?.body).toEqual({
        routing: { bot_stopped: ['email'], bot_paused: ['email'] },
        webhookUrl: null,
      }),
    );
  });
});

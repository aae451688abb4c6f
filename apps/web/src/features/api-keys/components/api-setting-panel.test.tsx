import { walletMessages } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ApiSettingRoute from '../../../app/routes/api-setting';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

/** An account whose keys are bound, unless `bound` is false; POST /api/apikeys answers with `reply`. */
function apiSettingApi(options: { bound?: boolean; reply?: () => Response; exchange?: string } = {}) {
  let bound = options.bound ?? true;
  return mockApi({
    'GET /api/serverip': () => json({ ip: '203.0.113.7' }),
    'GET /api/fetchkeys': () =>
      json(bound ? { apiKey: 'AbCdEf123456', exchange: options.exchange ?? 'binance' } : { apiKey: null }),
    'GET /api/checkConnection': () => json({ connected: bound }),
    'POST /api/apikeys': (call) => {
      const reply = options.reply?.();
      if (reply) return reply;
      const { apiKey } = call.body as { apiKey: string | null };
      bound = apiKey !== null;
      return json({ success: true, message: bound ? walletMessages.keysSaved : walletMessages.disconnected });
    },
  });
}

// Typing into inputs is slow on a busy machine.
describe('API Setting', { timeout: 20_000 }, () => {
  it('shows the IP to whitelist, Connected, the key and the secret as 64 dots', async () => {
    apiSettingApi();
    renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });

    expect(await screen.findByRole('heading', { name: 'API Setting' })).toBeInTheDocument();
    expect(await screen.findByText('203.0.113.7')).toBeInTheDocument();
    expect(await screen.findByText('Connected')).toBeInTheDocument();
    expect(await screen.findByText('AbCdEf123456')).toBeInTheDocument();
    const secret = screen.getByTestId('masked-secret');
    expect(secret.textContent).toBe('•'.repeat(64));
    expect(screen.getByRole('button', { name: 'Disconnect' })).toBeInTheDocument();
  });

  it('shows Disconnected, no secret and no Disconnect button without keys', async () => {
    apiSettingApi({ bound: false });
    renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    expect(await screen.findByText('Disconnected')).toBeInTheDocument();
    expect(await screen.findByText('No key connected')).toBeInTheDocument();
    expect(screen.queryByTestId('masked-secret')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();
  });

  it('requires both keys with the spec messages and sends nothing', async () => {
    const api = apiSettingApi({ bound: false });
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('API Key is required.')).toBeInTheDocument();
    expect(screen.getByText('Secret Key is required.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/apikeys')).toHaveLength(0);
  });

  it('saves the keys, toasts success and then shows them as connected', async () => {
    const api = apiSettingApi({ bound: false });
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.type(await screen.findByLabelText('API Key'), 'AbCdEf123456');
    await user.type(screen.getByLabelText('Secret Key'), 'my-secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('API keys saved successfully')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/apikeys')[0]?.body).toEqual({
      exchange: 'binance',
      apiKey: 'AbCdEf123456',
      secretKey: 'my-secret',
    });
    expect(await screen.findByText('Connected')).toBeInTheDocument();
    expect(await screen.findByTestId('masked-secret')).toBeInTheDocument();
    expect(screen.getByLabelText('Secret Key')).toHaveValue('');
  });

  it('binds a Bybit key when Bybit is chosen, and shows the key as Bybit’s', async () => {
    const api = apiSettingApi({ bound: false, exchange: 'bybit' });
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.selectOptions(await screen.findByLabelText('Exchange'), 'Bybit');
    await user.type(screen.getByLabelText('API Key'), 'AbCdEf123456');
    await user.type(screen.getByLabelText('Secret Key'), 'my-secret');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('API keys saved successfully')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/apikeys')[0]?.body).toMatchObject({ exchange: 'bybit' });
    expect(await screen.findByTestId('bound-exchange')).toHaveTextContent('Bybit');
  });

  it('starts a replacement on the exchange of the key already bound, and names every exchange offered', async () => {
    apiSettingApi({ bound: true, exchange: 'bybit' });
    renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    expect(await screen.findByTestId('bound-exchange')).toHaveTextContent('Bybit');
    await waitFor(() => expect(screen.getByLabelText('Exchange')).toHaveValue('bybit'));
    expect(
      screen.getByText(
        "Where your bots trade: on Binance, Bybit or OKX with your own API keys, or on this install's paper exchange.",
      ),
    ).toBeInTheDocument();
  });

  it("toasts 'Failed to save API settings. Please try again.' when the save fails", async () => {
    apiSettingApi({
      bound: false,
      reply: () => json({ message: walletMessages.invalidKeys }, 400),
    });
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.type(await screen.findByLabelText('API Key'), 'wrong');
    await user.type(screen.getByLabelText('Secret Key'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(walletMessages.keysSaveFailed)).toBeInTheDocument();
    expect(screen.getByText(walletMessages.invalidKeys)).toBeInTheDocument();
  });

  it('asks before disconnecting; Cancel keeps the keys', async () => {
    const api = apiSettingApi();
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect API keys?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/apikeys')).toHaveLength(0);
  });

  it('disconnects after confirming and shows Disconnected', async () => {
    const api = apiSettingApi();
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect API keys?' });
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));

    expect(await screen.findByText('Disconnected successfully')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/apikeys')[0]?.body).toEqual({ apiKey: null, secretKey: null });
    expect(await screen.findByText('Disconnected')).toBeInTheDocument();
    expect(screen.queryByTestId('masked-secret')).not.toBeInTheDocument();
  });

  it('shows the bot-running refusal as sent', async () => {
    apiSettingApi({ reply: () => json({ message: walletMessages.disconnectWhileRunning }, 400) });
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect API keys?' });
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(
      await screen.findByText(
        'Your bot is currently running, so you cannot disconnect your API keys at this time.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Connected')).toBeInTheDocument();
  });

  it("toasts 'Failed to disconnect. Please try again.' on any other failure", async () => {
    apiSettingApi({ reply: () => new Response('', { status: 500 }) });
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disconnect API keys?' });
    await user.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText('Failed to disconnect. Please try again.')).toBeInTheDocument();
  });
});

describe('API Setting on the paper exchange', () => {
  it('asks for no key and says why', async () => {
    mockApi({
      'GET /api/serverip': () => json({ ip: '203.0.113.7' }),
      'GET /api/fetchkeys': () => json({ apiKey: null }),
      'GET /api/checkConnection': () => json({ connected: true, venue: 'paper', keysRequired: false }),
    });
    renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    const notice = await screen.findByTestId('paper-notice');
    expect(notice).toHaveTextContent('Paper trading: no API key needed');
    expect(screen.queryByLabelText(/API Key/)).not.toBeInTheDocument();
    expect(within(notice).getByRole('link', { name: 'Start a bot' })).toHaveAttribute('href', '/startbot');
  });

  it("shows the key's permissions as ticks and crosses", async () => {
    mockApi({
      'GET /api/serverip': () => json({ ip: '203.0.113.7' }),
      'GET /api/fetchkeys': () => json({ apiKey: 'AbCdEf123456' }),
      'GET /api/checkConnection': () =>
        json({
          connected: true,
          venue: 'binance',
          keysRequired: true,
          permissions: {
            ipRestricted: false,
            enableReading: true,
            enableSpotAndMarginTrading: true,
            enableFutures: false,
            enableWithdrawals: false,
            checkedAt: '2026-11-26T03:00:00.000Z',
          },
        }),
    });
    renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    const list = await screen.findByTestId('key-permissions');
    const rows = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(rows).toEqual([
      '✓Reading: on',
      '✓Spot trading: on',
      '✗Futures trading: off',
      '✗Withdrawals: off',
      '✗IP restriction: off',
    ]);
  });

  it('asks for the authenticator code when the server wants it before keys change', async () => {
    let calls = 0;
    const api = apiSettingApi({
      bound: false,
      reply: () => {
        calls += 1;
        return calls === 1
          ? json(
              { message: 'Enter the 6-digit code from your authenticator app.', twoFactorRequired: true },
              403,
            )
          : json({ success: true, message: walletMessages.keysSaved });
      },
    });
    const { user } = renderFeature('/api-setting', <ApiSettingRoute />, { signedIn: true });
    await user.type(await screen.findByLabelText('API Key'), 'AbCdEf123456');
    await user.type(screen.getByLabelText('Secret Key'), 'secret-value');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.type(await screen.findByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/apikeys')).toHaveLength(2));
    expect(api.callsTo('POST', '/api/apikeys')[1]?.body).toMatchObject({ code: '123456' });
  });
});

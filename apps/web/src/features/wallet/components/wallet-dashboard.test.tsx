import { walletMessages } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import MyWalletRoute from '../../../app/routes/my-wallet';
import { boxesLaidOutAt } from '../../../testing/box-width';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

interface WalletState {
  spot: string;
  futures: string;
  btc: string;
}

/** A connected account: 1,000.5 USDT spot, 250 USDT futures and 0.05 BTC, unless told otherwise. */
function walletApi(initial: Partial<WalletState> = {}, overrides: Parameters<typeof mockApi>[0] = {}) {
  const state: WalletState = { spot: '1000.5', futures: '250', btc: '0.05', ...initial };
  return mockApi({
    'GET /api/spotBalance': () => json({ spotusdtAmount: state.spot }),
    'GET /api/futuresBalance': () => json({ futuresusdtAmount: state.futures }),
    'GET /api/pichart': () =>
      json({
        usdt: String(Number(state.spot) + Number(state.futures)),
        availableBalance: state.spot,
        chartData: [],
      }),
    'GET /api/spotAssets': () =>
      json({
        assets: [
          { asset: 'USDT', balance: state.spot, free: state.spot, value: state.spot },
          { asset: 'BTC', balance: state.btc, free: state.btc, value: String(Number(state.btc) * 60000) },
        ],
      }),
    'GET /api/futuresAssets': () =>
      json({
        assets: [{ asset: 'USDT', balance: state.futures, free: state.futures, value: state.futures }],
      }),
    'POST /api/liveprice': () => json({ pair: 'BTCUSDT', price: '60000.00' }),
    'GET /api/committedfunds': () => json({ spotUsdt: '0', futuresUsdt: '0', coins: {}, bots: [] }),
    'GET /api/positions': () => json({ positions: [], connected: true }),
    'POST /api/transferspottofutures': (call) => {
      const { amount } = call.body as { amount: string };
      state.spot = String(Number(state.spot) - Number(amount));
      state.futures = String(Number(state.futures) + Number(amount));
      return json({ success: true, message: walletMessages.transferSuccessful });
    },
    'POST /api/transferfuturestospot': (call) => {
      const { amount } = call.body as { amount: string };
      state.futures = String(Number(state.futures) - Number(amount));
      state.spot = String(Number(state.spot) + Number(amount));
      return json({ success: true, message: walletMessages.transferSuccessful });
    },
    'POST /api/swaptousdt': (call) => {
      const { amount } = call.body as { amount: string };
      state.btc = String(Number(state.btc) - Number(amount));
      state.spot = String(Number(state.spot) + Number(amount) * 60000);
      return json({ success: true, message: walletMessages.swapSuccessful });
    },
    ...overrides,
  });
}

/** A balance card by its label; throws while it is not on screen. */
function card(label: string) {
  return screen.getByRole('group', { name: label });
}

async function openTransfer(user: ReturnType<typeof renderFeature>['user']) {
  await waitFor(() => expect(card('Spot USDT (Transferable)')).toHaveTextContent('1,000.50'));
  await waitFor(() => expect(card('Futures USDT (Transferable)')).toHaveTextContent('250.00'));
  await user.click(screen.getByRole('button', { name: 'Transfer' }));
  return screen.findByRole('dialog', { name: 'Internal Transfers' });
}

async function openSwap(user: ReturnType<typeof renderFeature>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Swap BTC to USDT' }));
  return screen.findByRole('dialog', { name: 'Swap to USDT' });
}

/** Spot assets of which running bots hold 5,999.5 USDT and 0.04 BTC. */
const ASSETS_HELD_BY_BOTS = [
  { asset: 'USDT', balance: '7000', free: '1000.5', committed: '5999.5', value: '7000' },
  { asset: 'BTC', balance: '0.05', free: '0.01', committed: '0.04', value: '3000' },
];

// Typing into inputs is slow on a busy machine; these tests type a lot.
describe('Wallet Dashboard', { timeout: 20_000 }, () => {
  it('shows the three USDT cards with 2 decimals and the spot assets', async () => {
    walletApi();
    renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Wallet Dashboard' })).toBeInTheDocument();
    await waitFor(() => expect(card('Total USDT')).toHaveTextContent('1,250.50USDT'));
    expect(card('Spot USDT (Transferable)')).toHaveTextContent('1,000.50USDT');
    expect(card('Futures USDT (Transferable)')).toHaveTextContent('250.00USDT');

    const table = await screen.findByRole('table', { name: 'Spot assets' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['No', 'Asset', 'Balance', 'Value (USDT)', 'Action']);
    expect(await within(table).findByText('0.05')).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Swap BTC to USDT' })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Swap USDT to USDT' })).not.toBeInTheDocument();
  });

  it('shows a line per asset on a phone: balance, value, what bots hold and Swap', async () => {
    boxesLaidOutAt(358);
    walletApi(
      {},
      {
        'GET /api/spotAssets': () => json({ assets: ASSETS_HELD_BY_BOTS }),
      },
    );
    renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const list = await screen.findByRole('list', { name: 'Spot assets' });
    expect(screen.queryByRole('table', { name: 'Spot assets' })).not.toBeInTheDocument();
    const [usdt, btc] = within(list).getAllByRole('listitem');
    expect(usdt).toHaveTextContent('USDT5,999.50 held by bots7,000.007,000.00 USDT');
    expect(btc).toHaveTextContent('BTC0.04 held by bots0.053,000.00 USDT');
    expect(within(btc!).getByRole('button', { name: 'Swap BTC to USDT' })).toBeInTheDocument();
    expect(within(usdt!).queryByRole('button')).not.toBeInTheDocument();
  });

  it("shows 'NO DATA' for a figure that cannot be read", async () => {
    walletApi({}, { 'GET /api/futuresBalance': () => new Response('', { status: 502 }) });
    renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    await waitFor(() => expect(card('Futures USDT (Transferable)')).toHaveTextContent('NO DATA'));
    expect(card('Spot USDT (Transferable)')).toHaveTextContent('1,000.50');
  });

  it('points to API Setting when no keys are bound', async () => {
    // The server answers the keyless polls as data (no 400 every 10 s).
    const keyless = { connected: false };
    mockApi({
      'GET /api/spotBalance': () => json({ ...keyless, spotusdtAmount: null, committedUsdt: '0' }),
      'GET /api/futuresBalance': () => json({ ...keyless, futuresusdtAmount: null, committedUsdt: '0' }),
      'GET /api/pichart': () =>
        json({ ...keyless, usdt: null, availableBalance: null, chartData: [], botCount: 0 }),
      'GET /api/spotAssets': () => json({ ...keyless, assets: [] }),
      'GET /api/futuresAssets': () => json({ ...keyless, assets: [] }),
      'GET /api/committedfunds': () => json({ spotUsdt: '0', futuresUsdt: '0', coins: {}, bots: [] }),
    });
    renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    expect(await screen.findByText('No exchange connected')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to API Setting' })).toHaveAttribute('href', '/api-setting');
    expect(screen.queryByRole('button', { name: 'Transfer' })).not.toBeInTheDocument();
  });
});

describe('Internal Transfers', { timeout: 20_000 }, () => {
  it("says 'Amount exceeds transferable balance' above the spot balance and sends nothing", async () => {
    const api = walletApi();
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openTransfer(user);
    expect(within(dialog).getByTestId('transferable')).toHaveTextContent('1,000.50');

    await user.type(within(dialog).getByLabelText('Amount'), '1000.51');
    expect(await within(dialog).findByText('Amount exceeds transferable balance')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(api.callsTo('POST', '/api/transferspottofutures')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Amount'));
    await user.type(within(dialog).getByLabelText('Amount'), '1000.5');
    await waitFor(() =>
      expect(within(dialog).queryByText('Amount exceeds transferable balance')).not.toBeInTheDocument(),
    );
  });

  it('toggles the direction: the source, its balance and the limit follow', async () => {
    const api = walletApi();
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openTransfer(user);
    expect(within(dialog).getByTestId('transfer-from')).toHaveTextContent('Spot');
    expect(within(dialog).getByTestId('transfer-to')).toHaveTextContent('Futures');

    await user.type(within(dialog).getByLabelText('Amount'), '300');
    await user.click(within(dialog).getByRole('button', { name: 'Switch direction' }));
    expect(within(dialog).getByTestId('transfer-from')).toHaveTextContent('Futures');
    expect(within(dialog).getByTestId('transfer-to')).toHaveTextContent('Spot');
    expect(within(dialog).getByTestId('transferable')).toHaveTextContent('250.00');
    // 300 fits in spot but not in futures.
    expect(await within(dialog).findByText('Amount exceeds transferable balance')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'MAX' }));
    expect(within(dialog).getByLabelText('Amount')).toHaveValue('250');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    expect(await screen.findByText('Transfer successful')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/transferfuturestospot')[0]?.body).toEqual({
      from: 'Futures',
      to: 'Spot',
      coin: 'USDT',
      amount: '250',
    });
    await waitFor(() => expect(card('Spot USDT (Transferable)')).toHaveTextContent('1,250.50'));
    expect(card('Futures USDT (Transferable)')).toHaveTextContent('0.00');
  });

  it("transfers spot to futures and toasts the server's refusal", async () => {
    const api = walletApi(
      {},
      {
        'POST /api/transferspottofutures': () =>
          json({ message: walletMessages.amountExceedsTransferable }, 400),
      },
    );
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openTransfer(user);
    await user.type(within(dialog).getByLabelText('Amount'), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Amount exceeds transferable balance')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/transferspottofutures')[0]?.body).toMatchObject({
      from: 'Spot',
      to: 'Futures',
      amount: '100',
    });
  });

  it("toasts 'Transfer failed' when the server gives no reason", async () => {
    walletApi({}, { 'POST /api/transferspottofutures': () => new Response('', { status: 500 }) });
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openTransfer(user);
    await user.type(within(dialog).getByLabelText('Amount'), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Transfer failed')).toBeInTheDocument();
  });
});

describe('Swap to USDT', { timeout: 20_000 }, () => {
  it('fills ALL with the available balance and shows the equivalent USDT at the live price', async () => {
    const api = walletApi();
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openSwap(user);
    expect(within(dialog).getByTestId('swap-available')).toHaveTextContent('0.05');

    await user.click(within(dialog).getByRole('button', { name: 'Swap all BTC' }));
    expect(within(dialog).getByLabelText('Amount (BTC)')).toHaveValue('0.05');
    await waitFor(() =>
      expect(within(dialog).getByTestId('swap-equivalent')).toHaveTextContent('≈ 3,000.00'),
    );
    expect(api.callsTo('POST', '/api/liveprice')[0]?.body).toEqual({ pair: 'BTCUSDT' });

    await user.click(within(dialog).getByRole('button', { name: 'Swap' }));
    expect(await screen.findByText('Swap successful')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/swaptousdt')[0]?.body).toEqual({ asset: 'BTC', amount: '0.05' });
    await waitFor(() => expect(card('Spot USDT (Transferable)')).toHaveTextContent('4,000.50'));
  });

  it.each([
    ['empty', ''],
    ['zero', '0'],
    ['not a number', 'abc'],
    ['above the available balance', '0.06'],
  ])("refuses an amount that is %s with 'Enter a valid amount'", async (_case, amount) => {
    const api = walletApi();
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openSwap(user);
    if (amount) await user.type(within(dialog).getByLabelText('Amount (BTC)'), amount);
    await user.click(within(dialog).getByRole('button', { name: 'Swap' }));
    expect(await within(dialog).findByText('Enter a valid amount')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/swaptousdt')).toHaveLength(0);
  });

  it('disables Swap with the reason for a leftover below the smallest order', async () => {
    // 0.00005 BTC at 60,000 is 3.00 USDT: under BTCUSDT's 5 USDT minimum order.
    const api = walletApi({ btc: '0.00005' });
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openSwap(user);
    expect(await within(dialog).findByTestId('swap-too-small')).toHaveTextContent(
      'Too small to swap: 0.00005 BTC is worth about 3.00 USDT, below the smallest order the exchange takes (5 USDT).',
    );
    expect(within(dialog).getByRole('button', { name: 'Swap' })).toBeDisabled();
    expect(within(dialog).getByLabelText('Amount (BTC)')).toBeDisabled();
    expect(api.callsTo('POST', '/api/swaptousdt')).toHaveLength(0);
  });

  it('leaves the swap open for a coin a bot holds, so the server can name the bot to stop first', async () => {
    // All 0.00005 BTC are the bot's: nothing is free, yet it is not dust to be disabled.
    walletApi(
      {},
      {
        'GET /api/spotAssets': () =>
          json({
            assets: [
              { asset: 'USDT', balance: '1000', free: '1000', value: '1000' },
              { asset: 'BTC', balance: '0.00005', free: '0', committed: '0.00005', value: '3' },
            ],
          }),
      },
    );
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openSwap(user);
    expect(within(dialog).getByTestId('swap-held')).toHaveTextContent('0.00005 BTC');
    expect(within(dialog).queryByTestId('swap-too-small')).toBeNull();
    expect(within(dialog).getByLabelText('Amount (BTC)')).toBeEnabled();
  });

  it("toasts the server's reason or 'Swap failed'", async () => {
    walletApi({}, { 'POST /api/swaptousdt': () => new Response('', { status: 500 }) });
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const dialog = await openSwap(user);
    await user.type(within(dialog).getByLabelText('Amount (BTC)'), '0.01');
    await user.click(within(dialog).getByRole('button', { name: 'Swap' }));
    expect(await screen.findByText('Swap failed')).toBeInTheDocument();
  });
});

describe('Wallet Dashboard: what running bots hold', { timeout: 20_000 }, () => {
  it('lists each bot with the USDT and coins it holds, and keeps the held coins out of the swap', async () => {
    walletApi(
      {},
      {
        'GET /api/spotAssets': () => json({ assets: ASSETS_HELD_BY_BOTS }),
        'GET /api/committedfunds': () =>
          json({
            spotUsdt: '5999.5',
            futuresUsdt: '0',
            coins: { BTC: '0.04' },
            bots: [
              {
                botId: 'b1',
                name: "BTCUSDT Spot · Multigrid 'Tight'",
                botType: 'multigrid',
                symbol: 'BTCUSDT',
                category: 'Spot',
                usdt: '5999.5',
                asset: 'BTC',
                qty: '0.04',
              },
            ],
          }),
      },
    );
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const held = await screen.findByTestId('committed-funds');
    expect(within(held).getByRole('link', { name: "BTCUSDT Spot · Multigrid 'Tight'" })).toHaveAttribute(
      'href',
      '/running-bot/b1',
    );
    expect(held).toHaveTextContent('5,999.50 USDT · 0.04 BTC');
    const dialog = await openSwap(user);
    expect(within(dialog).getByTestId('swap-available')).toHaveTextContent('0.01');
    expect(within(dialog).getByTestId('swap-held')).toHaveTextContent('0.04 BTC');
    await user.click(within(dialog).getByRole('button', { name: 'Swap all BTC' }));
    expect(within(dialog).getByLabelText('Amount (BTC)')).toHaveValue('0.01');
  });
});

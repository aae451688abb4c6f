import { type PositionView, positionMessages, positionTradedByBotMessage } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import MyWalletRoute from '../../../app/routes/my-wallet';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';
import { PositionsPanel } from './positions-panel';

/** The reported case: an ETH 3× long left by a bot stopped without a sale, and a BTC long nobody's bot opened. */
const ETH_LEFT_OPEN: PositionView = {
  symbol: 'ETHUSDT',
  side: 'long',
  quantity: '0.09',
  entryPrice: '3302',
  markPrice: '3250.5',
  leverage: 3,
  margin: '99.06',
  liquidationPrice: '2213.4',
  unrealizedPnl: '-4.635',
  bot: { botId: 'b-eth', name: "ETHUSDT Future · Multigrid 'Tight'", status: 'Stopped' },
};
const BTC_NO_BOT: PositionView = {
  symbol: 'BTCUSDT',
  side: 'long',
  quantity: '0.002',
  entryPrice: '60000',
  markPrice: '61000',
  leverage: 5,
  margin: '24',
  liquidationPrice: '48200',
  unrealizedPnl: '2',
  bot: null,
};

function walletWithPositions(initial: PositionView[], overrides: Parameters<typeof mockApi>[0] = {}) {
  let positions = [...initial];
  return mockApi({
    'GET /api/spotBalance': () => json({ spotusdtAmount: '1000' }),
    'GET /api/futuresBalance': () => json({ futuresusdtAmount: '0' }),
    'GET /api/pichart': () => json({ usdt: '1099.06', availableBalance: '1000', chartData: [] }),
    'GET /api/spotAssets': () => json({ assets: [] }),
    'GET /api/futuresAssets': () => json({ assets: [] }),
    'GET /api/committedfunds': () => json({ spotUsdt: '0', futuresUsdt: '0', coins: {}, bots: [] }),
    'GET /api/positions': () => json({ positions, connected: true }),
    'POST /api/closeposition': (call) => {
      const { symbol } = call.body as { symbol: string };
      positions = positions.filter((p) => p.symbol !== symbol);
      return json({ success: true, message: positionMessages.positionClosed });
    },
    ...overrides,
  });
}

const row = (symbol: string) => screen.findByTestId(`position-${symbol}`);

describe('Positions panel', { timeout: 20_000 }, () => {
  it('lists every position with its bot or "No bot", margin, liquidation price and unrealized PnL', async () => {
    walletWithPositions([BTC_NO_BOT, ETH_LEFT_OPEN]);
    renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const eth = await row('ETHUSDT');
    expect(eth).toHaveTextContent("ETHUSDT Future · Multigrid 'Tight' (stopped, position left open)");
    expect(eth).toHaveTextContent('Long 3×');
    expect(eth).toHaveTextContent('Margin99.06 USDT');
    expect(eth).toHaveTextContent('Liquidation price2,213.4');
    expect(eth).toHaveTextContent('Unrealized PnL-4.63 USDT');
    const btc = await row('BTCUSDT');
    expect(btc).toHaveTextContent('No bot');
    expect(btc).toHaveTextContent('Unrealized PnL+2.00 USDT');
  });

  it('closes a position only after the confirmation, and Cancel sends nothing', async () => {
    const api = walletWithPositions([ETH_LEFT_OPEN]);
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Close ETHUSDT position' }));
    let dialog = await screen.findByRole('dialog', { name: 'Close the ETHUSDT position?' });
    expect(dialog).toHaveTextContent('Sells 0.09 ETHUSDT at the market price with a reduce-only order');
    expect(dialog).toHaveTextContent('99.06 USDT');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/closeposition')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Close ETHUSDT position' }));
    dialog = await screen.findByRole('dialog', { name: 'Close the ETHUSDT position?' });
    await user.click(within(dialog).getByRole('button', { name: 'Close position' }));
    expect(await screen.findByText(positionMessages.positionClosed)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/closeposition')[0]?.body).toEqual({ symbol: 'ETHUSDT' });
    expect(await screen.findByText('No open futures positions.')).toBeInTheDocument();
  });

  it("offers no Close on a running bot's position and shows the server's refusal of a close", async () => {
    const running = { ...ETH_LEFT_OPEN, bot: { ...ETH_LEFT_OPEN.bot!, status: 'Live' } };
    const refusal = positionTradedByBotMessage('BTCUSDT', "BTCUSDT Future · Multigrid 'Wide'");
    walletWithPositions([running, BTC_NO_BOT], {
      'POST /api/closeposition': () => json({ message: refusal }, 409),
    });
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const eth = await row('ETHUSDT');
    expect(within(eth).queryByRole('button', { name: /Close/ })).not.toBeInTheDocument();
    expect(eth).toHaveTextContent('Stop the bot with "sell" to close this position.');
    await user.click(screen.getByRole('button', { name: 'Close BTCUSDT position' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close the BTCUSDT position?' });
    await user.click(within(dialog).getByRole('button', { name: 'Close position' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });

  it("tells in the transfer dialog that the futures USDT left is the position's margin", async () => {
    walletWithPositions([ETH_LEFT_OPEN]);
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    await row('ETHUSDT');
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Internal Transfers' });
    expect(within(dialog).queryByTestId('transfer-held')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Switch direction' }));
    expect(within(dialog).getByTestId('transfer-held')).toHaveTextContent(
      'Not transferable: 99.06 USDT margin of the open ETHUSDT position.',
    );
  });

  it('shows the compact dashboard panel only while positions are open, with a way to the wallet', async () => {
    walletWithPositions([ETH_LEFT_OPEN]);
    renderFeature('/dashboard', <PositionsPanel compact />, { signedIn: true });
    const panel = await screen.findByTestId('positions-compact');
    expect(panel).toHaveTextContent('ETHUSDT');
    expect(panel).toHaveTextContent('Margin99.06 USDT');
    expect(within(panel).queryByRole('button', { name: /Close/ })).not.toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Manage in Wallet' })).toHaveAttribute(
      'href',
      '/mywallet',
    );
  });

  it('shows no compact panel without positions', async () => {
    const api = walletWithPositions([]);
    renderFeature('/dashboard', <PositionsPanel compact />, { signedIn: true });
    await waitFor(() => expect(api.callsTo('GET', '/api/positions')).toHaveLength(1));
    expect(screen.queryByTestId('positions-compact')).not.toBeInTheDocument();
  });
});

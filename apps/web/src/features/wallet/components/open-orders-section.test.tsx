import { type OpenOrderView, openOrderMessages, orderOfRunningBotMessage } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import MyWalletRoute from '../../../app/routes/my-wallet';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';
import { PositionsPanel } from './positions-panel';

/** A running range grid's resting buy, a stopped bot's futures sell it left, and an order placed by hand. */
const RANGE_BUY: OpenOrderView = {
  market: 'spot',
  symbol: 'ETHUSDT',
  clientOrderId: 'AAECAwQFBgcICQoLDA0ODw-7',
  side: 'buy',
  price: '3120.5',
  quantity: '0.016',
  filledQuantity: '0',
  createdMs: Date.UTC(2026, 10, 28, 9, 30),
  bot: { botId: 'b-range', name: 'ETHUSDT Spot · Range grid', kind: 'range', status: 'Live' },
};
const LEFT_SELL: OpenOrderView = {
  market: 'future',
  symbol: 'BTCUSDT',
  clientOrderId: 'EBESExQVFhcYGRobHB0eHw-z',
  side: 'sell',
  price: '71250',
  quantity: '0.004',
  filledQuantity: '0.001',
  createdMs: Date.UTC(2026, 10, 27, 18, 5),
  bot: { botId: 'b-old', name: "BTCUSDT Future · Multigrid 'Wide'", kind: 'multigrid', status: 'Stopped' },
};
const BY_HAND: OpenOrderView = {
  market: 'spot',
  symbol: 'SOLUSDT',
  clientOrderId: 'web_7f3a',
  side: 'buy',
  price: '120',
  quantity: '1.5',
  filledQuantity: '0',
  createdMs: Date.UTC(2026, 10, 26, 12, 0),
  bot: null,
};

function walletWithOrders(initial: OpenOrderView[], overrides: Parameters<typeof mockApi>[0] = {}) {
  let orders = [...initial];
  return mockApi({
    'GET /api/spotBalance': () => json({ spotusdtAmount: '1000' }),
    'GET /api/futuresBalance': () => json({ futuresusdtAmount: '0' }),
    'GET /api/pichart': () => json({ usdt: '1000', availableBalance: '1000', chartData: [] }),
    'GET /api/spotAssets': () => json({ assets: [] }),
    'GET /api/futuresAssets': () => json({ assets: [] }),
    'GET /api/committedfunds': () => json({ spotUsdt: '0', futuresUsdt: '0', coins: {}, bots: [] }),
    'GET /api/positions': () => json({ positions: [], connected: true }),
    'GET /api/openorders': () => json({ orders, connected: true }),
    'POST /api/cancelorder': (call) => {
      const { clientOrderId } = call.body as { clientOrderId: string };
      orders = orders.filter((o) => o.clientOrderId !== clientOrderId);
      return json({ success: true, message: openOrderMessages.orderCanceled });
    },
    ...overrides,
  });
}

const row = (o: OpenOrderView) => screen.findByTestId(`order-${o.market}-${o.symbol}-${o.clientOrderId}`);

describe('Open orders', { timeout: 20_000 }, () => {
  it('lists every open order with market, side, price, quantity, filled and the bot it belongs to or "No bot"', async () => {
    walletWithOrders([RANGE_BUY, LEFT_SELL, BY_HAND]);
    renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const range = await row(RANGE_BUY);
    expect(range).toHaveTextContent('ETHUSDT Spot Buy');
    expect(range).toHaveTextContent('ETHUSDT Spot · Range grid (running)');
    expect(range).toHaveTextContent('Price3,120.5');
    expect(range).toHaveTextContent('Quantity0.016');
    expect(range).toHaveTextContent('Filled0');
    expect(range).toHaveTextContent('Placed28 Nov 2026');
    const left = await row(LEFT_SELL);
    expect(left).toHaveTextContent('BTCUSDT Futures Sell');
    expect(left).toHaveTextContent("BTCUSDT Future · Multigrid 'Wide' (stopped)");
    expect(left).toHaveTextContent('Price71,250');
    expect(left).toHaveTextContent('Filled0.001');
    expect(await row(BY_HAND)).toHaveTextContent('No bot');
    // Positions stay listed above, with their own empty state.
    expect(screen.getByText('No open futures positions.')).toBeInTheDocument();
  });

  it('cancels an order only after the confirmation, and "Keep order" sends nothing', async () => {
    const api = walletWithOrders([LEFT_SELL, BY_HAND]);
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const cancelButton = async () =>
      within(await row(LEFT_SELL)).getByRole('button', { name: 'Cancel BTCUSDT sell order at 71250' });
    await user.click(await cancelButton());
    let dialog = await screen.findByRole('dialog', { name: 'Cancel the BTCUSDT order?' });
    expect(dialog).toHaveTextContent('Removes the futures sell order for 0.004 BTCUSDT at 71,250');
    expect(dialog).toHaveTextContent("The order was left by BTCUSDT Future · Multigrid 'Wide'.");
    await user.click(within(dialog).getByRole('button', { name: 'Keep order' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST', '/api/cancelorder')).toHaveLength(0);

    await user.click(await cancelButton());
    dialog = await screen.findByRole('dialog', { name: 'Cancel the BTCUSDT order?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText(openOrderMessages.orderCanceled)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/cancelorder')[0]?.body).toEqual({
      market: 'future',
      symbol: 'BTCUSDT',
      clientOrderId: LEFT_SELL.clientOrderId,
    });
    await waitFor(() => expect(screen.queryByText('BTCUSDT Futures')).not.toBeInTheDocument());
    expect(await row(BY_HAND)).toBeInTheDocument();
  });

  it("offers no Cancel on a running bot's order and shows the server's refusal of a cancel", async () => {
    const refusal = orderOfRunningBotMessage('SOLUSDT', 'SOLUSDT Spot · Range grid');
    walletWithOrders([RANGE_BUY, BY_HAND], {
      'POST /api/cancelorder': () => json({ message: refusal }, 409),
    });
    const { user } = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    const range = await row(RANGE_BUY);
    expect(within(range).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();
    expect(screen.getByTestId('open-orders')).toHaveTextContent(
      "A running bot's orders are canceled by stopping the bot.",
    );
    await user.click(within(await row(BY_HAND)).getByRole('button', { name: /Cancel SOLUSDT/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the SOLUSDT order?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });

  it('says when there are no open orders, and when they could not be loaded', async () => {
    walletWithOrders([]);
    const first = renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    expect(await screen.findByText('No open orders.')).toBeInTheDocument();
    first.unmount();
    walletWithOrders([], {
      'GET /api/openorders': () => json({ message: 'The exchange did not answer.' }, 503),
    });
    renderFeature('/mywallet', <MyWalletRoute />, { signedIn: true });
    expect(
      await screen.findByText(
        'Open orders could not be loaded: The exchange did not answer.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
  });

  it('shows the compact dashboard panel for open orders alone, without Cancel, with a way to the wallet', async () => {
    walletWithOrders([BY_HAND]);
    renderFeature('/dashboard', <PositionsPanel compact />, { signedIn: true });
    const panel = await screen.findByTestId('positions-compact');
    await within(panel).findByText('SOLUSDT');
    expect(panel).toHaveTextContent('No bot');
    expect(panel).not.toHaveTextContent('Open positions');
    expect(within(panel).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Manage in Wallet' })).toHaveAttribute(
      'href',
      '/mywallet',
    );
  });

  it('lists the newest five orders on the dashboard and counts the rest', async () => {
    const grid = Array.from({ length: 7 }, (_, i) => ({
      ...RANGE_BUY,
      clientOrderId: `AAECAwQFBgcICQoLDA0ODw-${i}`,
      price: String(3000 + i * 10),
      createdMs: RANGE_BUY.createdMs + i,
    }));
    walletWithOrders(grid);
    renderFeature('/dashboard', <PositionsPanel compact />, { signedIn: true });
    const panel = await screen.findByTestId('positions-compact');
    await within(panel).findByText('2 more open orders in the Wallet.');
    expect(within(panel).getAllByRole('listitem')).toHaveLength(5);
  });

  it('shows no compact panel without positions or orders', async () => {
    const api = walletWithOrders([]);
    renderFeature('/dashboard', <PositionsPanel compact />, { signedIn: true });
    await waitFor(() => expect(api.callsTo('GET', '/api/openorders')).toHaveLength(1));
    await waitFor(() => expect(api.callsTo('GET', '/api/positions')).toHaveLength(1));
    expect(screen.queryByTestId('positions-compact')).not.toBeInTheDocument();
  });
});

/** The running grid page against a mocked API (the grid routes' contract: packages/shared bots/grid-bot.ts). */
import type { GridBotInfo, GridFillView } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import GridBotRoute from '../../../app/routes/grid-bot';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

vi.mock('../../market/components/candle-chart', () => ({ CandleChart: () => null }));

afterEach(() => {
  vi.useRealTimers();
});

function grid(over: Partial<GridBotInfo> = {}): GridBotInfo {
  return {
    id: 'g1',
    symbol: 'BTCUSDT',
    category: 'Spot',
    status: 'Live',
    stopReason: null,
    haltReason: null,
    outOfRange: false,
    strategy: {
      type: 'range',
      lower: 90000,
      upper: 100000,
      grids: 10,
      mode: 'arithmetic',
      stopLoss: 85000,
      takeProfit: null,
      sellOnStop: true,
      trailingUp: false,
      trailingDown: false,
      direction: 'long',
      leverage: 1,
    },
    investment: 1000,
    qtyPerOrder: 0.00106,
    levels: [90000, 91000, 92000, 93000, 94000, 95000, 96000, 97000, 98000, 99000, 100000],
    orders: [
      { level: 3, side: 'buy', price: 93000, qty: 0.00106, clientOrderId: 'g1-3', reduceOnly: false },
      { level: 4, side: 'buy', price: 94000, qty: 0.00106, clientOrderId: 'g1-4', reduceOnly: false },
      { level: 6, side: 'sell', price: 96000, qty: 0.00106, clientOrderId: 'g1-6', reduceOnly: false },
    ],
    gridProfit: 1.86,
    floatingPnl: -0.42,
    totalPnl: 1.44,
    gridApr: 33.9,
    matchedTrades: 2,
    trades: 9,
    fees: 1.01,
    startPrice: 95000,
    lastPrice: 95210.5,
    base: 0.0042,
    quote: 597.3,
    position: null,
    startedAt: '2026-11-20T10:00:00.000Z',
    stoppedAt: null,
    exchange: 'Bybit',
    ...over,
  };
}

const fills: GridFillView[] = [
  {
    time: '2026-11-21T08:00:00.000Z',
    side: 'sell',
    level: 6,
    price: 96000,
    qty: 0.00106,
    quote: 101.76,
    fee: 0.10176,
    feeAsset: 'USDT',
    pnl: 0.93,
  },
  {
    time: '2026-11-20T10:00:00.000Z',
    side: 'buy',
    level: null,
    price: 95000,
    qty: 0.0053,
    quote: 503.5,
    fee: 0.0000053,
    feeAsset: 'BTC',
    pnl: null,
  },
];

function gridApi(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'POST /api/gridbotinfo': () => json(grid()),
    'POST /api/gridfills': () => json(fills),
    'GET /api/candles': () => json({ candles: [] }),
    'POST /api/gridstop': () => json({ message: 'Grid stopped.' }),
    'POST /api/gridedit': () => json({ message: 'Grid updated.' }),
    ...overrides,
  });
}

function renderGridBot(options: Parameters<typeof renderFeature>[2] = {}) {
  return renderFeature('/grid-bot/g1', <GridBotRoute />, {
    signedIn: true,
    route: '/grid-bot/:id',
    ...options,
  });
}

describe('running grid page', () => {
  it('shows grid profit, floating PnL and total apart, APR, matched trades, the orders and the fills', async () => {
    const api = gridApi();
    renderGridBot();
    const figures = await screen.findByLabelText('Grid figures');
    // The exchange of the member's key the grid trades on, as on the bot pages.
    expect(screen.getByTestId('grid-exchange')).toHaveTextContent('Bybit');
    expect(figures).toHaveTextContent('Grid profit+$1.86');
    expect(figures).toHaveTextContent('Floating PnL-$0.42');
    expect(figures).toHaveTextContent('Total PnL+$1.44');
    expect(figures).toHaveTextContent('Grid APR33.90%');
    expect(figures).toHaveTextContent('Matched trades2');
    expect(figures).toHaveTextContent('Quantity per order0.00106 BTC');
    const orders = screen.getByRole('table', { name: 'Open orders' });
    expect(within(orders).getAllByRole('row')).toHaveLength(4);
    expect(within(orders).getByText('96,000.00')).toBeInTheDocument();
    const fillTable = await screen.findByRole('table', { name: 'Fills' });
    expect(within(fillTable).getByText('+$0.93')).toBeInTheDocument();
    expect(within(fillTable).getByText('Market')).toBeInTheDocument();
    expect(screen.queryByTestId('out-of-range')).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/api/gridbotinfo')[0]?.body).toEqual({ botID: 'g1' });
  });

  it('shows the out-of-range badge while the price is outside the grid', async () => {
    gridApi({ 'POST /api/gridbotinfo': () => json(grid({ outOfRange: true, lastPrice: 101500 })) });
    renderGridBot();
    expect(await screen.findByTestId('out-of-range')).toHaveTextContent('Out of range');
    expect(screen.getByText(/The price 101,500.00 is outside the grid/)).toBeInTheDocument();
  });

  it('polls the grid every 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = gridApi();
    renderGridBot({ userEventOptions: { advanceTimers: vi.advanceTimersByTime } });
    await screen.findByLabelText('Grid figures');
    const before = api.callsTo('POST', '/api/gridbotinfo').length;
    await vi.advanceTimersByTimeAsync(21_000);
    expect(api.callsTo('POST', '/api/gridbotinfo').length).toBeGreaterThanOrEqual(before + 2);
  });

  it('says when the grid is not found', async () => {
    gridApi({ 'POST /api/gridbotinfo': () => json({ message: 'Bot not found.' }, 404) });
    renderGridBot();
    expect(await screen.findByText('Grid not found')).toBeInTheDocument();
  });

  it('offers a retry when the grid could not load', async () => {
    let fail = true;
    gridApi({
      'POST /api/gridbotinfo': () =>
        fail ? json({ message: 'Server busy, try again.' }, 503) : json(grid()),
    });
    const { user } = renderGridBot();
    expect(await screen.findByText('Could not load this grid')).toBeInTheDocument();
    expect(screen.getByText('Server busy, try again.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Grid figures')).toBeInTheDocument();
  });

  it('shows an empty fills table with its message', async () => {
    gridApi({ 'POST /api/gridfills': () => json([]) });
    renderGridBot();
    expect(await screen.findByText('No fill yet.')).toBeInTheDocument();
  });

  it.each([
    ['Stop', false],
    ['Stop & sell BTC', true],
  ])('"%s" behind the confirmation posts /api/gridstop with sell %s', async (button, sell) => {
    const api = gridApi();
    const { user } = renderGridBot();
    await screen.findByLabelText('Grid figures');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop this grid?' });
    expect(api.callsTo('POST', '/api/gridstop')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: button }));
    expect(await screen.findByText('Grid stopped.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/gridstop')[0]?.body).toEqual({ botID: 'g1', sell });
  });

  it('names the futures stop "close position" and shows the funding the position paid', async () => {
    gridApi({
      'POST /api/gridbotinfo': () =>
        json(
          grid({
            category: 'Future',
            position: {
              size: 0.185,
              entryPrice: 95000,
              margin: 500,
              liquidationPrice: 50000,
              funding: -1.25,
            },
          }),
        ),
    });
    const { user } = renderGridBot();
    await screen.findByLabelText('Grid figures');
    expect(screen.getByLabelText('Grid figures')).toHaveTextContent('Liquidation price50,000.00');
    expect(screen.getByLabelText('Grid figures')).toHaveTextContent('Funding-$1.25');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop this grid?' });
    expect(within(dialog).getByRole('button', { name: 'Stop & close position' })).toBeInTheDocument();
  });

  it("shows the API's message when a stop is refused", async () => {
    gridApi({ 'POST /api/gridstop': () => json({ message: 'This grid is already stopping.' }, 409) });
    const { user } = renderGridBot();
    await screen.findByLabelText('Grid figures');
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop this grid?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stop & sell BTC' }));
    expect(await screen.findByText('This grid is already stopping.')).toBeInTheDocument();
  });

  it('edits the stops and trailing: a cleared price is sent as null', async () => {
    const api = gridApi();
    const { user } = renderGridBot();
    await screen.findByLabelText('Grid figures');
    await user.click(screen.getByRole('button', { name: 'Edit stops' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit stops and trailing' });
    expect(within(dialog).getByLabelText('Stop-loss price')).toHaveValue('85000');
    await user.clear(within(dialog).getByLabelText('Stop-loss price'));
    await user.type(within(dialog).getByLabelText('Take-profit price'), '105000');
    await user.click(within(dialog).getByLabelText('Trailing up'));
    await user.type(within(dialog).getByLabelText('Trailing up limit'), '120000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Grid updated.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/gridedit')[0]?.body).toEqual({
      botID: 'g1',
      stopLoss: null,
      takeProfit: 105000,
      sellOnStop: true,
      trailingUp: true,
      trailingUpLimit: 120000,
    });
  });

  it("refuses a price typed with a sign in the edit, and shows the API's message for a refused edit", async () => {
    const api = gridApi({
      'POST /api/gridedit': () => json({ message: 'takeProfit must be above upper' }, 400),
    });
    const { user } = renderGridBot();
    await screen.findByLabelText('Grid figures');
    await user.click(screen.getByRole('button', { name: 'Edit stops' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit stops and trailing' });
    await user.type(within(dialog).getByLabelText('Take-profit price'), '-5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('takeProfit must be a price above 0')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/gridedit')).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Take-profit price'));
    await user.type(within(dialog).getByLabelText('Take-profit price'), '95000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('takeProfit must be above upper')).toBeInTheDocument();
  });

  it('says a waiting grid waits for its trigger', async () => {
    gridApi({
      'POST /api/gridbotinfo': () =>
        json(grid({ status: 'Waiting', orders: [], strategy: { ...grid().strategy, trigger: 93500 } })),
    });
    renderGridBot();
    expect(
      await screen.findByText('Waiting for the price to cross the trigger at 93,500.00.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No order is resting.')).toBeInTheDocument();
  });

  it('says why a stopped grid stopped, and offers no stop or edit', async () => {
    gridApi({
      'POST /api/gridbotinfo': () =>
        json(
          grid({
            status: 'Stopped',
            stopReason: 'stoploss',
            orders: [],
            stoppedAt: '2026-11-22T00:00:00.000Z',
          }),
        ),
    });
    renderGridBot();
    expect(await screen.findByText(/Stopped by its stop-loss\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit stops' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('The grid has no open orders.')).toBeInTheDocument());
  });
});

import type { BotSummary, GridBotView } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import DashboardRoute from '../../../app/routes/dashboard';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';
import { pieSlices } from '../lib/pie';

function bot(id: string, name: string, overrides: Partial<BotSummary> = {}): BotSummary {
  return {
    id,
    name,
    botType: 'multigrid',
    category: 'Spot',
    strategy_name: 'Ladder',
    status: 'Live',
    haltReason: null,
    stopReason: null,
    liveprice: 100,
    sparklineData: [1, 2, 3],
    runtime: 1.5,
    roi: 1,
    apy: 243.33,
    investment: 500,
    pnl: 5,
    unrealizedPnl: 0,
    totalPnl: 5,
    trades24h: 2,
    totalTrades: 6,
    grid_no: 2,
    total_grid: 5,
    datewiseprofit: { '2025-03-01': 2, '2025-03-02': 3 },
    leverage: 1,
    last_buying_price: 99,
    avg_buy_price: 99,
    purchased_qty: 1,
    botstartdate: '2025-03-01T00:00:00Z',
    overbuy_protection_value: null,
    is_protection_active: false,
    profitbookat: null,
    sell_all_and_pause_at_price: null,
    restart_at_price: null,
    stoploss_and_stopbot_at_price: null,
    liquidationPrice: null,
    tradeType: 'multigrid',
    ...overrides,
  };
}

function dashboardApi(
  multigrid: BotSummary[],
  scalping: BotSummary[],
  agreed = true,
  overrides: Parameters<typeof mockApi>[0] = {},
) {
  return mockApi({
    'GET /api/disclaimeragreementcheck': () => json({ agreed }),
    'GET /api/botstatus': () => json({ bots: multigrid }),
    'GET /api/scalpbotstatus': () => json({ bots: scalping }),
    'GET /api/pichart': () =>
      json({
        usdt: '10000',
        availableBalance: '8500.5',
        chartData: multigrid.length
          ? multigrid.map((b) => ({ label: b.name, value: b.investment }))
          : [{ label: 'Not Active', value: 100 }],
      }),
    'GET /api/scalppichart': () =>
      json({
        usdt: '10000',
        availableBalance: '8500.5',
        chartData: scalping.length
          ? scalping.map((b) => ({ label: b.name, value: b.investment }))
          : [{ label: 'Not Active', value: 100 }],
      }),
    'GET /api/totalprofitbookdata': () => json({ totalProfit: 12.5, lossBook: -2, totalpnl: 10.5 }),
    'GET /api/gridbots': () => json([]),
    ...overrides,
  });
}

function grid(id: string, symbol: string, overrides: Partial<GridBotView> = {}): GridBotView {
  return {
    id,
    symbol,
    category: 'Spot',
    status: 'Live',
    stopReason: null,
    haltReason: null,
    outOfRange: false,
    strategy: {
      type: 'range',
      lower: 1900,
      upper: 2100,
      grids: 4,
      mode: 'arithmetic',
      sellOnStop: true,
      trailingUp: false,
      trailingDown: false,
      direction: 'long',
      leverage: 1,
    },
    investment: 1000,
    qtyPerOrder: 0.1273,
    levels: [1900, 1950, 2000, 2050, 2100],
    orders: [
      { level: 0, side: 'buy', price: 1900, qty: 0.1273, clientOrderId: 'a', reduceOnly: false },
      { level: 3, side: 'sell', price: 2050, qty: 0.1273, clientOrderId: 'b', reduceOnly: false },
    ],
    gridProfit: 5.9106,
    floatingPnl: -2.5,
    totalPnl: 3.4106,
    gridApr: 215.74,
    matchedTrades: 1,
    trades: 3,
    fees: 0.5,
    startPrice: 2000,
    lastPrice: 2010,
    base: 0.25,
    quote: 490.8,
    position: null,
    startedAt: '2025-03-01T00:00:00Z',
    stoppedAt: null,
    ...overrides,
  };
}

describe('Dashboard range grids', () => {
  it('lists running range grids with the other bots, out of range when the price left the grid', async () => {
    dashboardApi([bot('m1', 'BTCUSDT')], [], true, {
      'GET /api/gridbots': () =>
        json([
          grid('g1', 'ETHUSDT', { outOfRange: true, lastPrice: 1850 }),
          grid('g2', 'SOLUSDT', { status: 'Stopped', stopReason: 'manual' }),
        ]),
    });
    const { user } = renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    const link = await screen.findByRole('link', { name: 'ETH/USDT Spot grid, Live, out of range' });
    expect(link).toHaveAttribute('href', '/grid-bot/g1');
    const card = link.closest('article') as HTMLElement;
    expect(card).toHaveTextContent('1,900.00–2,100.00 · 4 grids');
    expect(card).toHaveTextContent('Investment$1,000.00');
    expect(card).toHaveTextContent('Grid Profit+$5.91');
    expect(card).toHaveTextContent('Total PnL+$3.41');
    expect(card).toHaveTextContent('Matched Trades1');
    expect(card).toHaveTextContent('Open Orders2');
    expect(within(card).getByTestId('grid-state')).toHaveTextContent(
      'Out of range: the price 1,850.00 is outside 1,900.00–2,100.00, so no order fills until it returns.',
    );
    // A stopped grid belongs to History, not here.
    expect(screen.queryByRole('link', { name: /SOL\/USDT/ })).not.toBeInTheDocument();
    // The pie counts the grid's investment with the bots'.
    const pie = await screen.findByRole('img', { name: /Total funds/ });
    await waitFor(() => expect(pie).toHaveTextContent('Bots2'));
    expect(screen.getByRole('list', { name: 'Funds by bot' })).toHaveTextContent('ETH/USDT Spot');

    await user.click(screen.getByRole('tab', { name: 'GRID' }));
    expect(screen.getByRole('link', { name: /ETH\/USDT Spot grid/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /BTC\/USDT/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'MULTIGRID' }));
    expect(screen.queryByRole('link', { name: /ETH\/USDT Spot grid/ })).not.toBeInTheDocument();
  });

  it('offers Start Grid on the GRID tab when no grid runs, and shows the other bots if the grid list fails', async () => {
    dashboardApi([bot('m1', 'BTCUSDT')], [], true, {
      'GET /api/gridbots': () => json({ message: 'Internal error' }, 500),
    });
    const { user } = renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    expect(await screen.findByRole('link', { name: 'BTC/USDT Multigrid bot, Live' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'GRID' }));
    expect(screen.getByText('No grid bots running')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Grid' })).toHaveAttribute('href', '/grid');
  });
});

describe('Dashboard slips', () => {
  it('counts bots, not slices, in the pie centre', async () => {
    const many = Array.from({ length: 11 }, (_, i) => bot(`m${i}`, `B${i}USDT`, { investment: 100 + i }));
    dashboardApi(many, [bot('s1', 'ETHUSDT', { botType: 'scalping', tradeType: 'scalp' })]);
    renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    const pie = await screen.findByRole('img', { name: /Total funds/ });
    await waitFor(() => expect(pie).toHaveTextContent('Bots12'));
  });

  it("shows a halted bot's reason on its card", async () => {
    dashboardApi(
      [bot('m1', 'BTCUSDT', { status: 'Pause', haltReason: 'Orders keep failing: insufficient balance' })],
      [],
    );
    renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    const card = await screen.findByRole('link', { name: /BTC\/USDT Multigrid bot, Pause/ });
    expect(within(card.closest('article') as HTMLElement).getByTestId('halt-reason')).toHaveTextContent(
      'Orders keep failing: insufficient balance',
    );
  });

  it('shows why a bot is paused at its pause price on its card', async () => {
    dashboardApi(
      [
        bot('m1', 'BTCUSDT', {
          status: 'Pause',
          sell_all_and_pause_at_price: 61000,
          restart_at_price: 58000,
        }),
      ],
      [],
    );
    renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    const card = await screen.findByRole('link', {
      name: /BTC\/USDT Multigrid bot, Pause/,
    });
    expect(within(card.closest('article') as HTMLElement).getByTestId('halt-reason')).toHaveTextContent(
      'It restarts when the price falls to its restart price 58000.',
    );
  });
});

describe('Dashboard', () => {
  it('shows the funds figures and live-bot cards with ALL / MULTIGRID / SCALPING tabs', async () => {
    dashboardApi(
      [bot('m1', 'BTCUSDT')],
      [bot('s1', 'ETHUSDT', { botType: 'scalping', category: 'Future', status: 'Pause' })],
    );
    const { user } = renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    const funds = await screen.findByRole('region', { name: 'Funds' });
    await waitFor(() => expect(funds).toHaveTextContent('Total USDT$10,000.00'));
    expect(funds).toHaveTextContent('Available Balance$8,500.50');
    expect(funds).toHaveTextContent('Total Profit$12.50');
    expect(funds).toHaveTextContent('Loss Book-$2.00');
    expect(funds).toHaveTextContent('Total PnL$10.50');

    const btc = await screen.findByRole('link', { name: 'BTC/USDT Multigrid bot, Live' });
    expect(btc).toHaveAttribute('href', '/running-bot/m1');
    // The link is the card's title, stretched over the card.
    const btcCard = btc.closest('article') as HTMLElement;
    expect(within(btcCard).getByText('Live')).toBeInTheDocument();
    expect(within(btcCard).getByText('2/5')).toBeInTheDocument();
    expect(within(btcCard).getByText(/APY is an estimate/)).toBeInTheDocument();
    const eth = screen.getByRole('link', { name: 'ETH/USDT Scalping bot, Pause' });
    expect(eth).toHaveAttribute('href', '/scalp-running-bot/s1');

    await user.click(screen.getByRole('tab', { name: 'SCALPING' }));
    expect(screen.queryByRole('link', { name: /BTC\/USDT/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /ETH\/USDT/ })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'MULTIGRID' }));
    expect(screen.queryByRole('link', { name: /ETH\/USDT/ })).not.toBeInTheDocument();
  });

  it('shows Not Active and a Start BOT call to action when nothing runs', async () => {
    dashboardApi([], []);
    renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    expect(await screen.findByText('No bots running')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Start BOT' }).length).toBeGreaterThan(0);
    const legend = screen.getByRole('list', { name: 'Funds by bot' });
    await waitFor(() => expect(legend).toHaveTextContent('Not Active100.0%'));
  });

  it('says why the balances are missing: no exchange connected, with the way to API Setting', async () => {
    // The server answers the keyless poll as data (no 400 every 10 s).
    const notConnected = () =>
      json({
        usdt: null,
        availableBalance: null,
        chartData: [{ label: 'Not Active', value: 100 }],
        botCount: 0,
        connected: false,
      });
    dashboardApi([], [], true, { 'GET /api/pichart': notConnected, 'GET /api/scalppichart': notConnected });
    renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('No exchange connected');
    expect(within(note).getByRole('link', { name: 'Go to API Setting' })).toHaveAttribute(
      'href',
      '/api-setting',
    );
    expect(screen.getByRole('region', { name: 'Funds' })).toHaveTextContent('Total USDT—');
  });

  it('pauses the 10 s refresh while the disclaimer is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = dashboardApi([], [], false);
    renderFeature('/dashboard', <DashboardRoute />, {
      signedIn: true,
      userEventOptions: { advanceTimers: vi.advanceTimersByTime },
    });
    expect(await screen.findByRole('dialog', { name: 'Disclaimer' })).toBeInTheDocument();
    const before = api.callsTo('GET', '/api/botstatus').length;
    await vi.advanceTimersByTimeAsync(25_000);
    expect(api.callsTo('GET', '/api/botstatus')).toHaveLength(before);
  });

  it('refreshes every 10 s once agreed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = dashboardApi([], [], true);
    renderFeature('/dashboard', <DashboardRoute />, {
      signedIn: true,
      userEventOptions: { advanceTimers: vi.advanceTimersByTime },
    });
    await screen.findByText('No bots running');
    const before = api.callsTo('GET', '/api/botstatus').length;
    await vi.advanceTimersByTimeAsync(21_000);
    expect(api.callsTo('GET', '/api/botstatus').length).toBeGreaterThanOrEqual(before + 2);
  });
});

describe('Dashboard: bots that stopped by themselves', () => {
  const stop = (id: string, body: string, read: boolean, botType = 'multigrid') => ({
    id,
    type: 'bot_stopped',
    title: 'Bot stopped (stoploss, profit book, liquidation)',
    body,
    botId: `${id}1111111-1111-4111-8111-111111111111`,
    botType,
    createdAt: '2026-03-01T10:00:00.000Z',
    read,
  });

  it('names each unread stop with its reason and a link to the bot until it is dismissed', async () => {
    const items = [
      stop('3', 'Your SOLUSDT Spot grid stopped: its take-profit price was reached.', false, 'range'),
      stop('2', 'Your ETHUSDT Spot bot stopped: its stoploss price was reached.', false),
      stop('1', 'Your BTCUSDT Spot bot stopped: its stoploss price was reached.', true),
    ];
    const api = dashboardApi([], [], true, {
      'GET /api/notifications': () => json({ unread: 2, items }),
      'POST /api/notifications/read': () => json({ unread: 1 }),
    });
    const { user } = renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    const notice = await screen.findByRole('region', { name: '2 bots stopped by themselves' });
    expect(notice).toHaveTextContent('Your ETHUSDT Spot bot stopped: its stoploss price was reached.');
    expect(notice).not.toHaveTextContent('BTCUSDT');
    expect(
      within(notice)
        .getAllByRole('link', { name: 'View bot' })
        .map((l) => l.getAttribute('href')),
    ).toEqual([
      '/grid-bot/31111111-1111-4111-8111-111111111111',
      '/running-bot/21111111-1111-4111-8111-111111111111',
    ]);
    await user.click(
      within(notice).getByRole('button', {
        name: 'Dismiss: Your ETHUSDT Spot bot stopped: its stoploss price was reached.',
      }),
    );
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/notifications/read')[0]?.body).toEqual({ ids: ['2'] }),
    );
  });

  it('shows nothing when every stop was read', async () => {
    dashboardApi([], [], true, {
      'GET /api/notifications': () =>
        json({
          unread: 0,
          items: [stop('1', 'Your BTCUSDT Spot bot stopped: its stoploss price was reached.', true)],
        }),
    });
    renderFeature('/dashboard', <DashboardRoute />, { signedIn: true });
    await screen.findByText('No bots running');
    expect(screen.queryByRole('region', { name: /stopped by/ })).not.toBeInTheDocument();
  });
});

describe('pieSlices', () => {
  it('keeps the 8 largest slices and sums the rest as Others; Not Active 100 when empty', () => {
    expect(pieSlices([], [{ label: 'Not Active', value: 100 }])).toEqual([
      { label: 'Not Active', value: 100 },
    ]);
    const many = Array.from({ length: 11 }, (_, i) => ({ label: `B${i}`, value: i + 1 }));
    const slices = pieSlices(many.slice(0, 6), many.slice(6));
    expect(slices).toHaveLength(9);
    expect(slices[0]).toEqual({ label: 'B10', value: 11 });
    expect(slices[8]).toEqual({ label: 'Others', value: 1 + 2 + 3 });
  });
});

import type { TopBot } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import GridRoute from '../../../app/routes/grid';
import LivebotsRoute from '../../../app/routes/livebots';
import { json, mockApi } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';

vi.mock('../../market/components/candle-chart', () => ({ CandleChart: () => null }));

const top: TopBot[] = [
  {
    copyToken: 'v1.opaque.one',
    key: 'card-sol',
    name: 'SOLUSDT',
    category: 'Future',
    botType: 'scalping',
    shape: 'Scalping 2',
    strategy: {
      type: 'scalping',
      No_of_order: 2,
      allotted_amount_percentage_per_order: [0.5, 0.5],
      buy_percentage: [1.5],
      takeprofit_percentage: 3,
    },
    leverage: 2,
    runtime: 3,
    roi: 4.2,
    apy: 511,
    pnl7dPct: 1.234,
    maxDrawdownPct: 6.5,
    copyCount: 3,
    demo: true,
    sparklineData: [1, 2],
  },
  {
    copyToken: 'v1.opaque.two',
    key: 'card-btc',
    name: 'BTCUSDT',
    category: 'Spot',
    botType: 'multigrid',
    shape: 'Multigrid 5',
    strategy: {},
    leverage: 1,
    runtime: 1,
    roi: 1.1,
    apy: 401,
    pnl7dPct: -0.5,
    maxDrawdownPct: 0,
    copyCount: 1,
    demo: false,
    sparklineData: [],
  },
];

describe('Copy BOTs', () => {
  it("shows a losing bot's ROI as a loss in the copy dialog", async () => {
    mockApi({ 'GET /api/livebotdata': () => json({ bots: [{ ...top[1], roi: -0.07 } as TopBot] }) });
    const { user } = renderFeature('/livebots', <LivebotsRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: /^Rank 1: BTC\/USDT Multigrid/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Start New Bot' });
    expect(within(dialog).getByTestId('copy-bot-roi')).toHaveTextContent('-0.07%');
    expect(within(dialog).getByTestId('copy-bot-roi')).toHaveClass('text-down');
  });

  it('ranks the top bots and copies one into Start Bot, prefilled', async () => {
    const api = mockApi({
      'GET /api/livebotdata': () => json({ bots: top }),
      'POST /api/copybotstrategy': () => json({ strategy_name: 'Scalping 2 · copy', botType: 'scalping' }),
    });
    const { user } = renderFeature('/livebots', <LivebotsRoute />, { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Top Running Bots' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Top running bots' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: /^Rank 1: SOL\/USDT Scalping/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Start New Bot' });
    expect(within(dialog).getByRole('table', { name: 'Strategy grids' })).toHaveTextContent('Market');
    expect(dialog).toHaveTextContent('+3%');
    expect(within(dialog).getByTestId('copy-bot-roi')).toHaveTextContent('+4.20%');
    expect(within(dialog).getByTestId('copy-bot-roi')).toHaveClass('text-up');
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(window.location.pathname).toBe('/startbot'));
    expect(api.callsTo('POST', '/api/copybotstrategy')[0]?.body).toEqual({ copyToken: 'v1.opaque.one' });
    expect(currentUrl()).toBe(
      '/startbot?pair=SOLUSDT&category=Future&strategy=Scalping+2+%C2%B7+copy&botType=Scalping',
    );
  });

  it('shows the strategy shape, not a name, and filters by pair, category and runtime', async () => {
    const api = mockApi({ 'GET /api/livebotdata': () => json({ bots: top }) });
    const { user } = renderFeature('/livebots', <LivebotsRoute />, { signedIn: true });
    const list = await screen.findByRole('list', { name: 'Top running bots' });
    expect(list).toHaveTextContent('Scalping 2');
    await user.selectOptions(screen.getByLabelText('Pair'), 'ETHUSDT');
    await user.selectOptions(screen.getByLabelText('Category'), 'Spot');
    await user.selectOptions(screen.getByLabelText('Runtime'), '7');
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/livebotdata').at(-1)?.query).toEqual({
        pair: 'ETHUSDT',
        category: 'Spot',
        minDays: '7',
      }),
    );
  });

  it("shows each card's 7-day PnL, max drawdown, copies and demo mark", async () => {
    mockApi({ 'GET /api/livebotdata': () => json({ bots: top }) });
    renderFeature('/livebots', <LivebotsRoute />, { signedIn: true });
    const list = await screen.findByRole('list', { name: 'Top running bots' });
    const [sol, btc] = within(list).getAllByRole('listitem');
    expect(within(sol!).getByTestId('top-bot-pnl7d')).toHaveTextContent('+1.23%');
    expect(within(sol!).getByTestId('top-bot-pnl7d')).toHaveClass('text-up');
    expect(within(sol!).getByTestId('top-bot-drawdown')).toHaveTextContent('-6.50%');
    expect(within(sol!).getByTestId('top-bot-copies')).toHaveTextContent('Copied 3 times');
    expect(sol).toHaveTextContent('Demo');
    expect(within(btc!).getByTestId('top-bot-pnl7d')).toHaveTextContent('-0.50%');
    expect(within(btc!).getByTestId('top-bot-pnl7d')).toHaveClass('text-down');
    expect(within(btc!).getByTestId('top-bot-drawdown')).toHaveTextContent('0.00%');
    expect(within(btc!).getByTestId('top-bot-copies')).toHaveTextContent('Copied 1 time');
    expect(btc).not.toHaveTextContent('Demo');
  });

  it('keeps the cards in place when a refetch re-ranks them, so a click opens the card it was aimed at', async () => {
    // The second read ranks BTC first and seals new copy tokens, as every read does.
    const reranked = [
      { ...top[1]!, copyToken: 'v2.opaque.two', roi: 5 },
      { ...top[0]!, copyToken: 'v2.opaque.one' },
    ];
    let reads = 0;
    const api = mockApi({
      'GET /api/livebotdata': () => {
        reads += 1;
        return json({ bots: reads === 1 ? top : reranked });
      },
      'POST /api/copybotstrategy': () => json({ strategy_name: 'Scalping 2 · copy', botType: 'scalping' }),
    });
    const { user, queryClient } = renderFeature('/livebots', <LivebotsRoute />, { signedIn: true });
    const aimed = await screen.findByRole('button', { name: /^Rank 1: SOL\/USDT Scalping/ });
    await queryClient.refetchQueries({ queryKey: ['copy-bots'] });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /BTC\/USDT.*ROI 5\.00%/ })).toBeInTheDocument(),
    );
    expect(api.callsTo('GET', '/api/livebotdata')).toHaveLength(2);
    const list = screen.getByRole('list', { name: 'Top running bots' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('SOL/USDT'), expect.stringContaining('BTC/USDT')]);
    await user.click(aimed);
    const dialog = await screen.findByRole('dialog', { name: 'Start New Bot' });
    expect(dialog).toHaveTextContent('SOL/USDT');
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/copybotstrategy')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/copybotstrategy')[0]?.body).toEqual({ copyToken: 'v2.opaque.one' });
  });

  it('shows a range grid with its range and opens Start Grid with its values, which the user may change', async () => {
    // A top ETHUSDT spot grid of 1900–2100 in 4 arithmetic levels, with a stop-loss at 1800.
    const grid: TopBot = {
      ...top[1]!,
      copyToken: 'v1.opaque.grid',
      key: 'card-grid',
      name: 'ETHUSDT',
      botType: 'range',
      shape: 'Grid 1900–2100 · 4 grids · arithmetic',
      strategy: {
        type: 'range',
        lower: 1900,
        upper: 2100,
        grids: 4,
        mode: 'arithmetic',
        stopLoss: 1800,
        takeProfit: null,
        sellOnStop: true,
        trailingUp: false,
        trailingUpLimit: null,
        trailingDown: false,
        trailingDownLimit: null,
        direction: 'long',
        leverage: 1,
      },
      roi: 1.95,
      maxDrawdownPct: null,
      copyCount: 2,
    };
    const api = mockApi({
      'GET /api/livebotdata': () => json({ bots: [grid] }),
      'POST /api/copybotstrategy': () => json({ success: true, botType: 'range', strategy: grid.strategy }),
      'GET /api/symbolpair': () => json({ pairs: ['BTCUSDT', 'ETHUSDT'] }),
      'POST /api/liveprice': () => json({ pair: 'ETHUSDT', price: '2000' }),
      'GET /api/candles': () => json({ candles: [] }),
      'GET /api/gridbots': () => json([]),
      'POST /api/startgrid': () => json({ message: 'Grid started.', botID: 'g1' }),
    });
    const { user } = renderFeature('/livebots', <LivebotsRoute />, {
      signedIn: true,
      routes: [{ path: '/grid', element: <GridRoute /> }],
    });
    const list = await screen.findByRole('list', { name: 'Top running bots' });
    const [card] = within(list).getAllByRole('listitem');
    expect(within(card!).getByTestId('top-bot-shape')).toHaveTextContent(
      '1,900.00–2,100.00 · 4 grids · Arithmetic',
    );
    expect(card).toHaveTextContent('Grid');
    // A grid keeps no drawdown (no figure shown); its copies are counted like a bot's.
    expect(within(card!).getByTestId('top-bot-drawdown')).toHaveTextContent('—');
    expect(within(card!).getByTestId('top-bot-copies')).toHaveTextContent('Copied 2 times');

    await user.click(screen.getByRole('button', { name: /^Rank 1: ETH\/USDT Grid, ROI 1\.95%/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Start New Bot' });
    const params = within(dialog).getByLabelText('Grid parameters');
    expect(params).toHaveTextContent('Lower price1,900.00');
    expect(params).toHaveTextContent('Upper price2,100.00');
    expect(params).toHaveTextContent('Grids4');
    expect(params).toHaveTextContent('Stop-loss price1,800.00');
    expect(params).toHaveTextContent('Take-profit priceOff');
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(window.location.pathname).toBe('/grid'));
    expect(api.callsTo('POST', '/api/copybotstrategy')[0]?.body).toEqual({ copyToken: 'v1.opaque.grid' });
    expect(currentUrl()).toBe(
      '/grid?pair=ETHUSDT&category=Spot&lower=1900&upper=2100&stopLoss=1800&grids=4&leverage=1&mode=arithmetic&direction=long&sellOnStop=true&trailingUp=false&trailingDown=false',
    );

    // Start Grid holds the copied values; the user widens the range to 2200 and adds the amount.
    expect(await screen.findByLabelText('Lower price')).toHaveValue('1900');
    expect(screen.getByLabelText('Upper price')).toHaveValue('2100');
    expect(screen.getByLabelText('Grids')).toHaveValue('4');
    expect(screen.getByLabelText('Spacing')).toHaveValue('arithmetic');
    expect(screen.getByLabelText('Stop-loss price')).toHaveValue('1800');
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('2,000.00'));
    await user.clear(screen.getByLabelText('Upper price'));
    await user.type(screen.getByLabelText('Upper price'), '2200');
    await user.type(screen.getByLabelText('Investment (USDT)'), '1000');
    await screen.findByTestId('grid-preview');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    // Levels 1900, 1975, 2050, 2125, 2200; 1975 is nearest 2000 and stays empty: one buy at 1900 and three sells
    // bought at 2000. q = floor(1000 / (1900 + 3 × 2000) / 0.0001) × 0.0001 = 0.1265.
    const confirm = await screen.findByRole('dialog', { name: 'Start this grid?' });
    expect(within(confirm).getByText('0.1265')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Confirm start' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/startgrid')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/startgrid')[0]?.body).toMatchObject({
      category: 'Spot',
      selectPair: 'ETHUSDT',
      amount: 1000,
      strategy: { type: 'range', lower: 1900, upper: 2200, grids: 4, mode: 'arithmetic', stopLoss: 1800 },
    });
  });
});

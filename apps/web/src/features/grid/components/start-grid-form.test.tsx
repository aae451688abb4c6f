/**
 * Start Grid against a mocked API (the grid routes' contract: packages/shared bots/grid-bot.ts). The preview's
 * figures are worked by hand on BTCUSDT spot (tick 0.01, step 0.00001, minimum 5 USDT, maker fee 0.1 %).
 */
import { botMessages, encodeCandles } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import GridRoute from '../../../app/routes/grid';
import { json, mockApi, type RecordedCall } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';
import type { GridSuggestionBacktest } from '../lib/suggestion-periods';
import { StartGridForm } from './start-grid-form';

// The route composes the market chart; the test DOM has no canvas. The stand-in drags a line as the chart does
// (its drag is tested in features/market chart-overlays.test.tsx): it reports a price under the pointer.
vi.mock('../../market/components/candle-chart', () => ({
  CandleChart: ({
    draggableLevels,
    onLevelDrag,
  }: {
    draggableLevels?: string[];
    onLevelDrag?: (key: string, price: number) => void;
  }) =>
    draggableLevels?.includes('lower') ? (
      <button type="button" onClick={() => onLevelDrag?.('lower', 91234.5678)}>
        drag lower
      </button>
    ) : null,
}));

function gridApi(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/symbolpair': () => json({ pairs: ['BTCUSDT', 'ETHUSDT'] }),
    'POST /api/liveprice': () => json({ pair: 'BTCUSDT', price: '95000' }),
    'POST /api/futureliveprice': () => json({ pair: 'BTCUSDT', price: '95000' }),
    'GET /api/candles': () => json({ candles: [] }),
    'POST /api/startgrid': () => json({ message: 'Grid started.', botID: 'g1' }),
    'GET /api/gridbots': () => json([]),
    ...overrides,
  });
}

function renderGrid() {
  return renderFeature('/grid', <GridRoute />, { signedIn: true });
}

type User = ReturnType<typeof renderGrid>['user'];

async function fill(user: User, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const input = screen.getByLabelText(label);
    await user.clear(input);
    if (value !== '') await user.type(input, value);
  }
}

/**
 * GET /api/candles: for a period, hourly closes 90,000 + 50 i from the first hour of each half of it (the two
 * halves are the periods Suggest asks for at once), or the same closes in each half rotated by `shift` hours; the
 * chart's recent candles (no period) empty.
 */
function hourlyCloses(call: RecordedCall, shift = 0) {
  if (call.query.from === undefined) return json({ candles: [] });
  const from = Number(call.query.from);
  const hours = (Number(call.query.to) - from) / 3_600_000;
  const openTimeMs = Float64Array.from({ length: hours }, (_, i) => from + i * 3_600_000);
  const close = Float64Array.from({ length: hours }, (_, i) => 90000 + 50 * ((i + shift) % (hours / 2)));
  return json(
    encodeCandles(
      { openTimeMs, open: close, high: close, low: close, close },
      { symbol: 'BTCUSDT', category: 'spot', interval: '1h', source: 'embedded' },
    ),
  );
}

const basics = { 'Lower price': '90000', 'Upper price': '100000', Grids: '10', 'Investment (USDT)': '1000' };

describe('Start Grid', () => {
  it('previews the grid at the live price with the engine: profit per grid, quantity, the start buy', async () => {
    gridApi();
    const { user } = renderGrid();
    await screen.findByRole('heading', { name: 'Start Grid' });
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('95,000.00'));
    await fill(user, basics);
    const preview = await screen.findByTestId('grid-preview');
    // (91,000 × 0.999 − 90,000 × 1.001) / 90,000 = 0.91 %; (100,000 × 0.999 − 99,000 × 1.001) / 99,000 = 0.8091 %.
    expect(preview).toHaveTextContent('Profit per grid (after fees)0.8091% – 0.91%');
    // 1000 / (90,000 + … + 94,000 + 5 × 95,000) = 0.0010695… → 0.00106 BTC; the start buys 5 × 0.00106 = 0.0053.
    expect(preview).toHaveTextContent('Quantity per order0.00106 BTC');
    expect(preview).toHaveTextContent('Buy 0.0053 BTC ≈ $503.50');
    expect(preview).toHaveTextContent('5 buys, 5 sells');
  });

  it("refuses spacing below twice the fee with the engine's message, and does not start", async () => {
    const api = gridApi();
    const { user } = renderGrid();
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('95,000.00'));
    await fill(user, { ...basics, 'Upper price': '91000' });
    const refusal = await screen.findByTestId('grid-refusal');
    expect(refusal).toHaveTextContent(
      'grid spacing of 0.11% between 90900 and 91000 does not cover twice the 0.1% fee: the minimum spacing is 0.2% (181.8 USDT at 90900); use fewer grids or a wider range',
    );
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/api/startgrid')).toHaveLength(0);
  });

  it('refuses an order below the minimum notional', async () => {
    gridApi();
    const { user } = renderGrid();
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('95,000.00'));
    await fill(user, { ...basics, 'Investment (USDT)': '10' });
    expect(await screen.findByTestId('grid-refusal')).toHaveTextContent(
      'an order of 0.00001 at 90000 is 0.9 USDT, below the minimum order of 5 USDT for BTCUSDT: invest more or use fewer grids',
    );
  });

  it('previews a grid with a trigger at the trigger price, where it starts and sizes its orders', async () => {
    gridApi();
    const { user } = renderGrid();
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('95,000.00'));
    await fill(user, basics);
    await user.click(screen.getByRole('button', { name: 'Advanced settings' }));
    await fill(user, { 'Trigger price': '99000' });
    // At 99,000 the nearest level is 99,000: nine buys below, one sell above.
    // 1000 / (90,000 + … + 98,000 + 99,000) = 0.0010582… → 0.00105 BTC.
    const preview = await screen.findByTestId('grid-preview');
    await waitFor(() => expect(preview).toHaveTextContent('9 buys, 1 sells'));
    expect(preview).toHaveTextContent('Quantity per order0.00105 BTC');
    expect(preview).toHaveTextContent('Buy 0.00105 BTC ≈ $103.95');
  });

  it('shows each field its message: the number-text rule and the schema bounds', async () => {
    gridApi();
    const { user } = renderGrid();
    await screen.findByRole('heading', { name: 'Start Grid' });
    await fill(user, { 'Lower price': '-5', 'Upper price': '1e5', Grids: '1' });
    await user.click(screen.getByRole('button', { name: 'Advanced settings' }));
    await fill(user, { 'Take-profit price': '50' });
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('lower must be a price')).toBeInTheDocument();
    expect(screen.getByText('upper must be a price')).toBeInTheDocument();
    expect(screen.getByText('grids must be 2 to 200')).toBeInTheDocument();
    expect(screen.getByText(botMessages.amountRequired)).toBeInTheDocument();
    await fill(user, basics);
    expect(await screen.findByText('takeProfit must be above upper')).toBeInTheDocument();
  });

  it('starts after the confirmation and opens the running grid', async () => {
    const api = gridApi();
    const { user } = renderGrid();
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('95,000.00'));
    await fill(user, { ...basics, Grids: '10' });
    await user.selectOptions(screen.getByLabelText('Spacing'), 'geometric');
    await user.click(screen.getByRole('button', { name: 'Advanced settings' }));
    await fill(user, { 'Stop-loss price': '85000' });
    await screen.findByTestId('grid-preview');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start this grid?' });
    expect(within(dialog).getByText('0.00106')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Confirm start' }));
    await waitFor(() => expect(currentUrl()).toBe('/grid-bot/g1'));
    expect(await screen.findByText('Grid started.')).toBeInTheDocument();
    const [call] = api.callsTo('POST', '/api/startgrid');
    expect(call?.body).toMatchObject({
      category: 'Spot',
      selectPair: 'BTCUSDT',
      amount: 1000,
      strategy: {
        type: 'range',
        lower: 90000,
        upper: 100000,
        grids: 10,
        mode: 'geometric',
        stopLoss: 85000,
        sellOnStop: true,
        trailingUp: false,
        trailingDown: false,
        direction: 'long',
        leverage: 1,
      },
    });
  });

  it("shows the API's message when the start is refused", async () => {
    gridApi({
      'POST /api/startgrid': () => json({ message: 'Insufficient available balance: 12.5 USDT' }, 400),
    });
    const { user } = renderGrid();
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('95,000.00'));
    await fill(user, basics);
    await screen.findByTestId('grid-preview');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm start' }));
    expect(await screen.findByText('Insufficient available balance: 12.5 USDT')).toBeInTheDocument();
    expect(currentUrl()).toBe('/grid');
  });

  it('says when the price cannot be had, and starts nothing without it', async () => {
    const api = gridApi({ 'POST /api/liveprice': () => json({ message: 'Price unavailable' }, 503) });
    const { user } = renderGrid();
    await screen.findByRole('heading', { name: 'Start Grid' });
    await fill(user, basics);
    expect(await screen.findByText(/Could not load the price of BTCUSDT/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/api/startgrid')).toHaveLength(0);
  });

  it('says so when the start gets no answer', async () => {
    gridApi({ 'POST /api/startgrid': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user } = renderGrid();
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('95,000.00'));
    await fill(user, basics);
    await screen.findByTestId('grid-preview');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm start' }));
    expect(await screen.findByText(botMessages.noResponse)).toBeInTheDocument();
  });

  it('Suggest fills lower, upper and grids from the last 7 days of hourly closes', async () => {
    // Whatever period is asked, hourly closes 90,000 + 50 i from its first hour. The last 7 days are 168 closes:
    // the 17th and the 152nd sorted (⌊167 / 10⌋ = 16, ⌈167 × 9 / 10⌉ = 151) are 90,800 and 97,550.
    // 13 grids are 519.23 apart: 519.23 / 97,030.77 = 0.535 % at the top, at least 2 × 0.1 % × 2.5;
    // 14 would be 482.14 / 97,067.86 = 0.497 %. Rotated by 85 hours, the period ends at 90,000 + 50 × 84 =
    // 94,200, the live price.
    const api = gridApi({
      'GET /api/candles': (call) => hourlyCloses(call, 85),
      'POST /api/liveprice': () => json({ pair: 'BTCUSDT', price: '94200' }),
    });
    const { user } = renderGrid();
    await screen.findByRole('heading', { name: 'Start Grid' });
    await user.click(screen.getByRole('button', { name: 'Suggest 7 days' }));
    await waitFor(() => expect(screen.getByLabelText('Lower price')).toHaveValue('90800'));
    expect(screen.getByLabelText('Upper price')).toHaveValue('97550');
    expect(screen.getByLabelText('Grids')).toHaveValue('13');
    expect(screen.getByTestId('grid-suggestion')).toHaveTextContent(
      'held 80.95% of the hourly closes; 13 grids, the narrowest 0.5351% apart',
    );
    const [call] = api.callsTo('GET', '/api/candles').filter((c) => c.query.from !== undefined);
    expect(call?.query).toMatchObject({ symbol: 'BTCUSDT', category: 'spot', interval: '1h' });
    expect(Number(call?.query.to) - Number(call?.query.from)).toBe(14 * 86_400_000);
  });

  it('moves the suggested band to the live price where the market stands apart from the history', async () => {
    // The same closes, the market at half the last close (47,100 against 94,200): 90,800–97,550 becomes
    // 45,400–48,775, with the same 13 grids (259.62 / 48,515.38 = 0.5351 % at the top).
    gridApi({
      'GET /api/candles': (call) => hourlyCloses(call, 85),
      'POST /api/liveprice': () => json({ pair: 'BTCUSDT', price: '47100' }),
    });
    const { user } = renderGrid();
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('47,100.00'));
    await user.click(screen.getByRole('button', { name: 'Suggest 7 days' }));
    await waitFor(() => expect(screen.getByLabelText('Lower price')).toHaveValue('45400'));
    expect(screen.getByLabelText('Upper price')).toHaveValue('48775');
    expect(screen.getByLabelText('Grids')).toHaveValue('13');
    expect(screen.getByTestId('grid-suggestion')).toHaveTextContent(
      'From the last 7 days, moved to the live price 47,100.00 (the history ended at 94,200.00): 45,400.00–48,775.00 held 80.95% of the hourly closes; 13 grids, the narrowest 0.5351% apart',
    );
  });

  it('hands the backtest the range picked from the 30 days before the last 30, to try on the last 30, and takes its pick onto today’s range', async () => {
    gridApi({ 'GET /api/candles': hourlyCloses });
    const subjects: GridSuggestionBacktest[] = [];
    const { user } = renderFeature(
      '/grid',
      <StartGridForm
        renderSuggestionBacktest={(subject, apply) => {
          subjects.push(subject);
          return (
            <button type="button" onClick={() => apply({ lower: 93000, upper: 121000, grids: 25 })}>
              backtest of the suggestion
            </button>
          );
        }}
      />,
      { signedIn: true },
    );
    await waitFor(() => expect(screen.getByTestId('grid-live-price')).toHaveTextContent('95,000.00'));
    await fill(user, { 'Investment (USDT)': '1000' });
    await user.click(screen.getByRole('button', { name: 'Suggest 30 days' }));
    expect(await screen.findByText('backtest of the suggestion')).toBeInTheDocument();
    const subject = subjects[subjects.length - 1] as GridSuggestionBacktest;
    // 720 hourly closes per period: the 72nd and the 649th sorted (⌊719 / 10⌋ = 71, ⌈719 × 9 / 10⌉ = 648) are
    // 93,550 and 122,400.
    expect(subject.strategy).toMatchObject({
      type: 'range',
      lower: 93550,
      upper: 122400,
      mode: 'arithmetic',
    });
    expect(subject.fit.toMs).toBe(subject.test.fromMs);
    expect(subject.test.toMs - subject.test.fromMs).toBe(30 * 86_400_000);
    expect(subject.fit.toMs - subject.fit.fromMs).toBe(30 * 86_400_000);
    expect(subject.test.toMs % 3_600_000).toBe(0);
    expect(subject).toMatchObject({ symbol: 'BTCUSDT', category: 'spot', investment: 1000, leverage: null });
    // From the last 30 days (the market fell): 70,561.73–95,475.
    expect(screen.getByLabelText('Lower price')).toHaveValue('70561.73');
    expect(screen.getByLabelText('Upper price')).toHaveValue('95475');
    // The sweep's pick, 93,000–121,000 on the earlier period, goes into the fields moved onto today's range:
    // 93,000 × 70,561.73 / 93,550 = 70,146.88 and 121,000 × 95,475 / 122,400 = 94,382.97, on the 0.01 tick.
    await user.click(screen.getByRole('button', { name: 'backtest of the suggestion' }));
    expect(screen.getByLabelText('Lower price')).toHaveValue('70146.88');
    expect(screen.getByLabelText('Upper price')).toHaveValue('94382.97');
    expect(screen.getByLabelText('Grids')).toHaveValue('25');
  });

  it('takes a dragged line as the price on the tick', async () => {
    gridApi();
    const { user } = renderGrid();
    await user.click(await screen.findByRole('button', { name: 'drag lower' }));
    // BTCUSDT's tick is 0.01: 91,234.5678 → 91,234.57.
    expect(screen.getByLabelText('Lower price')).toHaveValue('91234.57');
  });

  it("lists the user's grids, each a link to its page", async () => {
    gridApi({
      'GET /api/gridbots': () =>
        json([
          {
            id: 'g7',
            symbol: 'ETHUSDT',
            category: 'Future',
            status: 'Live',
            levels: [2000, 2500, 3000],
            totalPnl: 12.4,
          },
        ]),
    });
    renderGrid();
    const list = await screen.findByRole('list', { name: 'Your grids' });
    expect(within(list).getByRole('link', { name: 'ETH/USDT Futures grid' })).toHaveAttribute(
      'href',
      '/grid-bot/g7',
    );
    expect(list).toHaveTextContent('2,000.00–3,000.00 · Live');
    expect(list).toHaveTextContent('+$12.40');
  });

  it('says when there is no grid yet', async () => {
    gridApi();
    renderGrid();
    expect(await screen.findByText('No grid yet: start one with the form.')).toBeInTheDocument();
  });

  it("opens the parameter sweep around the form's own grid", async () => {
    gridApi();
    const { user } = renderGrid();
    await screen.findByRole('heading', { name: 'Start Grid' });
    await user.click(screen.getByRole('button', { name: 'Sweep lower, upper and grids on history' }));
    expect(
      screen.getByText('Enter a valid range, grid count and investment to sweep them.'),
    ).toBeInTheDocument();
    await fill(user, basics);
    // 90,000–100,000 is 10,000 wide: lower and upper 2,500 either side, 5 to 15 grids; 4 × 4 × 6 backtests.
    const sweep = await screen.findByRole('region', { name: 'Range sweep' });
    expect(within(sweep).getByLabelText('Lower from')).toHaveValue('87500');
    expect(within(sweep).getByLabelText('Lower to')).toHaveValue('92500');
    expect(within(sweep).getByLabelText('Upper from')).toHaveValue('97500');
    expect(within(sweep).getByLabelText('Upper to')).toHaveValue('102500');
    expect(within(sweep).getByLabelText('Grids from')).toHaveValue('5');
    expect(within(sweep).getByLabelText('Grids to')).toHaveValue('15');
    expect(within(sweep).getByRole('button', { name: 'Run sweep (96 backtests)' })).toBeEnabled();
  });
});

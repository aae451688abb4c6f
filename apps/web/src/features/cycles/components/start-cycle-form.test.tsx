import { botMessages, cycleMessages, startReadinessMessages, takeProfitFeeWarning } from '@gridbot/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import CycleRoute from '../../../app/routes/cycle';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

// jsdom has no canvas: the Market Overview's candle chart is drawn only in a real browser (e2e).
vi.mock('../../market/components/candle-chart', () => ({ CandleChart: () => null }));

const prices: Record<string, number> = { BTCUSDT: 2000, ETHUSDT: 3000.5 };

function cycleApi(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/livecycles': () => json({ cycles: [] }),
    'GET /api/candles': () => json({ candles: [] }),
    'POST /api/liveprice': (call) => {
      const pair = (call.body as { pair: string }).pair;
      return json({ pair, price: String(prices[pair] ?? 100) });
    },
    'POST /api/futureliveprice': (call) =>
      json({ pair: (call.body as { pair: string }).pair, price: '1000' }),
    'POST /api/startcycledata': () => json({ message: cycleMessages.starting }),
    'GET /api/startcheck': () => json({ venue: 'paper', freeUsdt: '10000', blockers: [], feeWarning: null }),
    ...overrides,
  });
}

const field = (label: string) => screen.getByLabelText(label);
const startButton = () => screen.getByRole('button', { name: 'Start Cycle' });

async function waitForSuggestion(buy: string) {
  await waitFor(() => expect(field('Buy when price reaches')).toHaveValue(buy));
}

describe('Start Cycle form', () => {
  it('fills buy ×0.95, sell ×1.05 and stop loss ×0.8 from the live price, again when the pair changes', async () => {
    const api = cycleApi();
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await screen.findByRole('heading', { name: 'Start Cycle', level: 1 });
    await waitForSuggestion('1900');
    expect(field('Sell price')).toHaveValue('2100');
    expect(field('Stop loss (optional)')).toHaveValue('1600');
    expect(screen.getByTestId('cycle-live-price')).toHaveTextContent('2,000.00 USDT');
    expect(api.callsTo('POST', '/api/liveprice')[0]?.body).toEqual({ pair: 'BTCUSDT' });

    // ETH spot ticks 0.01: 3000.5 × 0.95 = 2850.475 → 2850.48 (rounded to the tick).
    await user.selectOptions(field('Pair'), 'ETHUSDT');
    await waitForSuggestion('2850.48');
    expect(field('Sell price')).toHaveValue('3150.53');
    expect(field('Stop loss (optional)')).toHaveValue('2400.4');

    await user.selectOptions(field('Category'), 'Future');
    await waitForSuggestion('950');
    expect(field('Sell price')).toHaveValue('1050');
    expect(field('Stop loss (optional)')).toHaveValue('800');
    expect(api.callsTo('POST', '/api/futureliveprice').at(-1)?.body).toEqual({ pair: 'ETHUSDT' });
  });

  it('warns, as the strategy editors do, when the sell price cannot pay the round-trip fee', async () => {
    cycleApi();
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await waitForSuggestion('1900');
    expect(screen.queryByTestId('fee-warning')).not.toBeInTheDocument();
    await user.clear(field('Sell price'));
    await user.type(field('Sell price'), '1900.95'); // 0.05 % above the buy
    expect(screen.getByTestId('fee-warning')).toHaveTextContent(
      takeProfitFeeWarning([0.05], 'spot') ?? 'a warning',
    );
  });

  it('keeps what the user typed when the same pair’s price refreshes', async () => {
    cycleApi();
    const { user, queryClient } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await waitForSuggestion('1900');
    await user.clear(field('Buy when price reaches'));
    await user.type(field('Buy when price reaches'), '1850');
    await queryClient.refetchQueries({ queryKey: ['cycles', 'live-price'] });
    expect(field('Buy when price reaches')).toHaveValue('1850');
  });

  it('asks for leverage only on Future and sends it only there', async () => {
    const api = cycleApi();
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await waitForSuggestion('1900');
    expect(screen.queryByLabelText('Leverage (x)')).not.toBeInTheDocument();
    await user.selectOptions(field('Category'), 'Future');
    const leverage = field('Leverage (x)');
    await user.clear(leverage);
    await user.type(leverage, '11');
    await user.type(field('Amount (USDT)'), '50');
    await user.type(field('Number of cycles'), '3');
    await waitForSuggestion('950');
    await user.click(startButton());
    expect(await screen.findByText(cycleMessages.leverageRange)).toBeInTheDocument();
    await user.clear(leverage);
    await user.type(leverage, '3');
    await user.click(startButton());
    await waitFor(() => expect(api.callsTo('POST', '/api/startcycledata')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/startcycledata')[0]?.body).toEqual({
      category: 'Future',
      pair: 'BTCUSDT',
      amount: 50,
      priceReachAt: 950,
      sellPriceAt: 1050,
      stopLossAt: 800,
      cycleCount: 3,
      leverage: 3,
    });

    await user.selectOptions(field('Category'), 'Spot');
    expect(screen.queryByLabelText('Leverage (x)')).not.toBeInTheDocument();
  });

  it('starts a spot cycle without a stop loss and says Cycle Starting...', async () => {
    const api = cycleApi();
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await waitForSuggestion('1900');
    await user.type(field('Amount (USDT)'), '25');
    await user.clear(field('Stop loss (optional)'));
    await user.type(field('Number of cycles'), '2');
    await user.click(startButton());
    expect(await screen.findByText(cycleMessages.starting)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/startcycledata')[0]?.body).toEqual({
      category: 'Spot',
      pair: 'BTCUSDT',
      amount: 25,
      priceReachAt: 1900,
      sellPriceAt: 2100,
      cycleCount: 2,
    });
    // The new cycle shows up: the list is asked again.
    await waitFor(() => expect(api.callsTo('GET', '/api/livecycles').length).toBeGreaterThan(1));
  });

  it('shows the shared schema messages before calling the server', async () => {
    const api = cycleApi();
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await waitForSuggestion('1900');
    await user.clear(field('Sell price'));
    await user.type(field('Sell price'), '1800');
    await user.click(startButton());
    expect(await screen.findByText(cycleMessages.amountRequired)).toBeInTheDocument();
    expect(screen.getByText(cycleMessages.cycleCountRequired)).toBeInTheDocument();
    expect(screen.getByText(cycleMessages.buyBelowSell)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/startcycledata')).toHaveLength(0);
  });

  it.each([
    [400, { message: 'A bot is already running on BTCUSDT.' }, 'A bot is already running on BTCUSDT.'],
    [400, { message: 'Amount must be at least 5 USDT.' }, 'Amount must be at least 5 USDT.'],
    [409, {}, cycleMessages.startError],
    [500, {}, cycleMessages.startError],
  ])('shows the spec message for a %i answer %j', async (status, body, shown) => {
    cycleApi({ 'POST /api/startcycledata': () => json(body, status) });
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await waitForSuggestion('1900');
    await user.type(field('Amount (USDT)'), '25');
    await user.type(field('Number of cycles'), '2');
    await user.click(startButton());
    expect(await screen.findByText(shown)).toBeInTheDocument();
  });

  it('shows what blocks the start before anything is filled in: keys on Binance, a bot on the pair', async () => {
    cycleApi({
      'GET /api/startcheck': (call) =>
        json({
          venue: 'binance',
          freeUsdt: null,
          blockers: [
            {
              code: 'keys',
              message: startReadinessMessages.keys,
              link: { to: '/api-setting', label: 'Go to API Setting' },
            },
            ...(call.query.pair === 'ETHUSDT'
              ? [{ code: 'pair_taken', message: botMessages.alreadyRunning('ETHUSDT') }]
              : []),
          ],
          feeWarning: null,
        }),
    });
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    const alert = await screen.findByTestId('start-blockers');
    expect(alert).toHaveTextContent('This cycle cannot start yet');
    expect(alert).toHaveTextContent(startReadinessMessages.keys);
    expect(screen.getByRole('link', { name: 'Go to API Setting' })).toHaveAttribute('href', '/api-setting');
    await user.selectOptions(field('Pair'), 'ETHUSDT');
    await waitFor(() =>
      expect(screen.getByTestId('start-blockers')).toHaveTextContent(botMessages.alreadyRunning('ETHUSDT')),
    );
  });
});

import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { json, mockApi } from '../../../testing/mock-api';
import { MarketOverview, spanLabel } from './market-overview';

// The test DOM has no canvas: the chart library is replaced by a recorder of what the component asks it to draw.
const drawn = vi.hoisted(() => ({ setData: [] as unknown[][], options: [] as unknown[] }));
vi.mock('lightweight-charts', () => {
  const series = () => ({
    setData: (data: unknown[]) => drawn.setData.push(data),
    update: () => {},
    applyOptions: () => {},
  });
  return {
    ColorType: { Solid: 'solid' },
    CrosshairMode: { Normal: 0 },
    CandlestickSeries: 'Candlestick',
    HistogramSeries: 'Histogram',
    createChart: () => ({
      addSeries: series,
      priceScale: () => ({ applyOptions: () => {} }),
      timeScale: () => ({ setVisibleLogicalRange: () => {} }),
      applyOptions: (options: unknown) => drawn.options.push(options),
      subscribeCrosshairMove: () => {},
      unsubscribeCrosshairMove: () => {},
      remove: () => {},
    }),
  };
});

const candle = (minute: number, close: string) => ({
  openTimeMs: Date.UTC(2026, 0, 1, 0, minute),
  open: '100',
  high: '105',
  low: '95',
  close,
  volume: '12.5',
});

/** Query parameters of every /api/candles request so far (the recorded calls keep only the path). */
function candleQueries() {
  return vi
    .mocked(globalThis.fetch)
    .mock.calls.map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/candles')
    .map((url) => Object.fromEntries(url.searchParams));
}

function renderOverview(props: Parameters<typeof MarketOverview>[0]) {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  return render(
    <QueryClientProvider client={client}>
      <MarketOverview {...props} />
    </QueryClientProvider>,
  );
}

describe('Market Overview', { timeout: 20_000 }, () => {
  it.each([
    [45 * 60_000, '45 min'],
    [300 * 5 * 60_000, '25 h'],
    [300 * 15 * 60_000, '3 d'],
    [300 * 86_400_000, '300 d'],
  ])('words a span of %i ms as "%s"', (ms, words) => {
    expect(spanLabel(ms)).toBe(words);
  });

  it('loads 15-minute candles by default and switches interval on demand', async () => {
    const api = mockApi({
      'GET /api/candles': () => json({ candles: [candle(0, '101'), candle(15, '110')] }),
      'POST /api/liveprice': () => json({ pair: 'ETHUSDT', price: '111.5' }),
    });
    const user = userEvent.setup();
    renderOverview({ symbol: 'ETHUSDT' });

    expect(screen.getByRole('heading', { name: 'Market Overview' })).toBeInTheDocument();
    expect(screen.getByText('ETH/USDT')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('market-price')).toHaveTextContent('111.50'));
    // From the first candle's open (100) to the live price, over the two 15-minute candles.
    expect(screen.getByTestId('market-change')).toHaveTextContent('+11.50% over 30 min');
    expect(candleQueries()[0]).toEqual({ symbol: 'ETHUSDT', interval: '15m', limit: '300', market: 'spot' });
    expect(screen.getByRole('button', { name: '15m' })).toHaveAttribute('aria-pressed', 'true');
    expect(drawn.setData.at(-1)).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: '1h' }));
    expect(screen.getByRole('button', { name: '1h' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(api.callsTo('GET', '/api/candles')).toHaveLength(2));
    expect(candleQueries()[1]).toMatchObject({ symbol: 'ETHUSDT', interval: '1h' });
  });

  it('gives the change over the bars the chart shows at first (the last 120), and says over how long', async () => {
    // 200 one-minute candles: the first 80 open at 50, the 120 shown at first open at 100.
    const candles = Array.from({ length: 200 }, (_, i) => ({
      ...candle(i, '100'),
      open: i < 80 ? '50' : '100',
    }));
    mockApi({
      'GET /api/candles': () => json({ candles }),
      'POST /api/liveprice': () => json({ pair: 'ETHUSDT', price: '95' }),
    });
    const user = userEvent.setup();
    renderOverview({ symbol: 'ETHUSDT' });
    await user.click(screen.getByRole('button', { name: '1m' }));
    await waitFor(() => expect(screen.getByTestId('market-change')).toHaveTextContent('-5.00% over 2 h'));
  });

  it('asks for the futures market and its live price when told to', async () => {
    const api = mockApi({
      'GET /api/candles': () => json({ candles: [candle(0, '101')] }),
      'POST /api/futureliveprice': () => json({ pair: 'BTCUSDT', price: '101.2' }),
    });
    renderOverview({ symbol: 'BTCUSDT', market: 'future' });
    await waitFor(() => expect(api.callsTo('POST', '/api/futureliveprice')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/futureliveprice')[0]?.body).toEqual({ pair: 'BTCUSDT' });
    expect(screen.getByText('Futures')).toBeInTheDocument();
    expect(candleQueries()[0]).toMatchObject({ symbol: 'BTCUSDT', market: 'future' });
  });

  it('says when the candles cannot be loaded and retries on demand', async () => {
    let fail = true;
    mockApi({
      'GET /api/candles': () =>
        fail ? json({ message: 'Unknown trading pair.' }, 400) : json({ candles: [candle(0, '101')] }),
      'POST /api/liveprice': () => json({ message: 'Unknown trading pair.' }, 400),
    });
    const user = userEvent.setup();
    renderOverview({ symbol: 'BTCUSDT' });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the chart. Unknown trading pair.',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getByTestId('market-price')).toHaveTextContent('101.00');
  });
});

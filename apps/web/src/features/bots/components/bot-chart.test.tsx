import type { BotLevels, BotSummary, OrderBookRow } from '@gridbot/shared';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BotChart, type RenderBotCandles } from './bot-chart';

const NO_LEVELS: BotLevels = { nextBuy: null, takeProfits: [], pause: null, restart: null, stoploss: null };

function summary(overrides: Partial<BotSummary> = {}): BotSummary {
  return {
    id: 'b1',
    name: 'BTCUSDT',
    botType: 'multigrid',
    category: 'Spot',
    strategy_name: 'Ladder',
    status: 'Live',
    haltReason: null,
    stopReason: null,
    liveprice: 60000,
    sparklineData: [],
    runtime: 1,
    roi: 0,
    apy: 0,
    investment: 1000,
    pnl: 0,
    unrealizedPnl: 0,
    totalPnl: 0,
    trades24h: 0,
    totalTrades: 0,
    grid_no: 0,
    total_grid: 5,
    datewiseprofit: {},
    leverage: 1,
    last_buying_price: null,
    avg_buy_price: null,
    purchased_qty: 0,
    botstartdate: '2025-03-01T10:00:00.000Z',
    overbuy_protection_value: null,
    is_protection_active: false,
    profitbookat: null,
    sell_all_and_pause_at_price: null,
    restart_at_price: null,
    stoploss_and_stopbot_at_price: null,
    liquidationPrice: null,
    tradeType: 'multigrid',
    levels: NO_LEVELS,
    ...overrides,
  };
}

/** The legend's rows as "title price". */
function legend(): string[] {
  const list = screen.getByRole('list', { name: 'Bot levels' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('BotChart', () => {
  it('Multigrid: names the next buy, each lot take-profit and the stoploss, on the chart and in the legend', () => {
    // Grid 1 at 60,000 and grid 2 at 58,800 (buy 2 %); grid 3 at 58,800 × 0.97 = 57,036; tp 2 % and 3 %.
    const bot = summary({
      grid_no: 2,
      levels: {
        nextBuy: { grid: 3, price: 57036 },
        takeProfits: [
          { grid: 1, price: 61200, armed: false },
          { grid: 2, price: 60564, armed: true },
        ],
        pause: null,
        restart: null,
        stoploss: 50000,
      },
    });
    const candles = vi.fn<RenderBotCandles>(() => <div data-testid="candles" />);
    render(<BotChart bot={bot} orders={undefined} renderCandles={candles} />);
    expect(screen.getByTestId('candles')).toBeInTheDocument();
    expect(legend()).toEqual([
      'Next buy (grid 3)57,036.00',
      'TP grid 161,200.00',
      'TP grid 2 (trailing)60,564.00',
      'Stoploss50,000.00',
    ]);
    const [, lines] = candles.mock.calls.at(-1) ?? [];
    expect(lines?.map((l) => [l.title, l.price, l.tone])).toEqual([
      ['Next buy (grid 3)', 57036, 'buy'],
      ['TP grid 1', 61200, 'sell'],
      ['TP grid 2 (trailing)', 60564, 'sell'],
      ['Stoploss', 50000, 'stop'],
    ]);
  });

  it('Scalping: one take-profit for the whole position', () => {
    const bot = summary({
      botType: 'scalping',
      tradeType: 'scalp',
      levels: {
        nextBuy: { grid: 2, price: 58800 },
        takeProfits: [{ grid: null, price: 60900, armed: false }],
        pause: 65000,
        restart: 59000,
        stoploss: null,
      },
    });
    render(<BotChart bot={bot} orders={undefined} />);
    expect(legend()).toEqual([
      'Next buy (grid 2)58,800.00',
      'Take profit60,900.00',
      'Pause65,000.00',
      'Restart59,000.00',
    ]);
  });

  it('says so when nothing waits on a price (an empty stack buys grid 1 at market)', () => {
    render(<BotChart bot={summary()} orders={undefined} />);
    expect(legend()).toEqual(['No buy or sell level is waiting on a price.']);
  });

  it("shows a summary's price triggers while it carries no levels", () => {
    const bot = summary({ levels: undefined, stoploss_and_stopbot_at_price: 48000, restart_at_price: 0 });
    render(<BotChart bot={bot} orders={undefined} />);
    expect(legend()).toEqual(['Stoploss48,000.00']);
  });

  it("draws a stopped bot's stoploss without its axis tag, which would cover the last price's", () => {
    const candles = vi.fn<RenderBotCandles>(() => <div data-testid="candles" />);
    const levels = { ...NO_LEVELS, stoploss: 59_990 };
    render(<BotChart bot={summary({ levels })} orders={undefined} renderCandles={candles} />);
    expect(candles.mock.calls.at(-1)?.[1].map((l) => l.axisLabel)).toEqual([undefined]);
    render(
      <BotChart bot={summary({ levels, status: 'Stopped' })} orders={undefined} renderCandles={candles} />,
    );
    expect(candles.mock.calls.at(-1)?.[1].map((l) => [l.title, l.axisLabel])).toEqual([['Stoploss', false]]);
  });

  it('marks the buys and sells of the order book, not its funding rows', () => {
    const row = (date: string, type: OrderBookRow['type'], price: number, grid: number): OrderBookRow => ({
      date,
      price,
      type,
      quantity: 0.001,
      cummulativeQuoteQty: price / 1000,
      pnl: 0,
      grid,
    });
    const orders = [
      row('2025-03-01T12:00:00.000Z', 'SELL', 61300, 2),
      row('2025-03-01T08:00:00.000Z', 'FUNDING', 60000, 0),
      row('2025-03-01T10:00:00.000Z', 'BUY', 58800, 2),
    ];
    const candles = vi.fn<RenderBotCandles>(() => null);
    render(<BotChart bot={summary()} orders={orders} renderCandles={candles} />);
    const [, , trades] = candles.mock.calls.at(-1) ?? [];
    expect(trades).toEqual([
      { timeMs: Date.parse('2025-03-01T12:00:00.000Z'), price: 61300, side: 'sell', text: 'S2' },
      { timeMs: Date.parse('2025-03-01T10:00:00.000Z'), price: 58800, side: 'buy', text: 'B2' },
    ]);
  });
});

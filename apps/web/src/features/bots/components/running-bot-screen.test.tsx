import { type BotInfo, botMessages, missingCoinsReason, type OrderBookRow } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import RunningBotRoute from '../../../app/routes/running-bot';
import ScalpRunningBotRoute from '../../../app/routes/scalp-running-bot';
import { boxesLaidOutAt } from '../../../testing/box-width';
import { json, mockApi } from '../../../testing/mock-api';
import { onPhoneWidth } from '../../../testing/phone-width';
import { currentUrl, renderFeature } from '../../../testing/render-feature';
import { reloadPageSoon } from '../lib/reload-page';

// The test DOM has no canvas: the chart stands in as what it was asked to draw (the lines' titles and prices, the trades).
vi.mock('../../market/components/candle-chart', () => ({
  CandleChart: (props: {
    symbol: string;
    levels?: { title: string; price: number }[];
    trades?: unknown[];
  }) => (
    <div
      data-testid="candle-chart"
      data-symbol={props.symbol}
      data-levels={(props.levels ?? []).map((l) => `${l.title}@${l.price}`).join('|')}
      data-trades={props.trades?.length ?? 0}
    />
  ),
}));

// jsdom cannot reload a page; the tests check that a reload was asked for instead.
vi.mock('../lib/reload-page', () => ({ reloadPageSoon: vi.fn() }));
beforeEach(() => vi.mocked(reloadPageSoon).mockClear());

function bot(overrides: Partial<BotInfo> = {}): BotInfo {
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
    sparklineData: [59000, 59500, 60000],
    runtime: 2.5,
    roi: 1.2,
    apy: 175.2,
    investment: 1000,
    pnl: 12.5,
    unrealizedPnl: -2,
    totalPnl: 10.5,
    trades24h: 4,
    totalTrades: 9,
    grid_no: 2,
    total_grid: 5,
    datewiseprofit: { '2025-03-01': 5, '2025-03-02': 7.5 },
    leverage: 1,
    last_buying_price: 59000,
    avg_buy_price: 59500,
    purchased_qty: 0.003,
    botstartdate: '2025-03-01T10:00:00.000Z',
    overbuy_protection_value: null,
    is_protection_active: false,
    profitbookat: null,
    sell_all_and_pause_at_price: null,
    restart_at_price: null,
    stoploss_and_stopbot_at_price: null,
    liquidationPrice: null,
    tradeType: 'multigrid',
    exchange: 'OKX',
    ...overrides,
  };
}

function order(i: number): OrderBookRow {
  return {
    date: new Date(Date.UTC(2025, 2, 1, 0, i)).toISOString(),
    price: 60000 - i,
    type: i % 2 ? 'SELL' : 'BUY',
    quantity: 0.001,
    cummulativeQuoteQty: 60,
    pnl: i % 2 ? 1.5 : 0,
    grid: 1,
  };
}

function botApi(summary: BotInfo, totalOrders = 25, overrides: Parameters<typeof mockApi>[0] = {}) {
  const pages = Math.max(1, Math.ceil(totalOrders / 20));
  const prefix = summary.botType === 'scalping' ? '/api/scalp' : '/api/';
  return mockApi({
    [`POST ${prefix}botinfo`]: () => json(summary),
    [`POST ${prefix}orderbook`]: (call) => {
      const page = (call.body as { page: number }).page;
      const orders = Array.from({ length: Math.min(20, totalOrders - (page - 1) * 20) }, (_, i) =>
        order((page - 1) * 20 + i),
      );
      return json({ orders, total: totalOrders, page, pages });
    },
    [`POST ${summary.botType === 'scalping' ? '/api/scalppurchasedQty' : '/api/purchasedQty'}`]: () =>
      json({ totalQuantity: 0.003, avgPrice: 59500, totalpnl: summary.totalPnl, pnl: -2 }),
    [`POST ${prefix}position`]: () => json({ liquidationPrice: 41000 }),
    'POST /api/sltp': () =>
      json({
        sell_all_and_pause_at_price: null,
        restart_at_price: null,
        stoploss_and_stopbot_at_price: null,
        liveprice: 60000,
      }),
    'POST /api/protectionvalues': () =>
      json({ is_protection_active: false, protection_grid_at: null, total_grid: 5 }),
    'POST /api/profitbookat': () => json({ profitbookat: null }),
    'GET /api/candles': () => json({ candles: [] }),
    'POST /api/sltpedit': () => json({ message: botMessages.sltpUpdated }),
    'POST /api/stopbot': () => json({ message: botMessages.stopped }),
    'POST /api/stopbotwithsell': () => json({ message: botMessages.stoppedSold }),
    'POST /api/scalpstopbot': () => json({ message: botMessages.stopped }),
    'POST /api/scalpstopbotwithsell': () => json({ message: botMessages.stoppedSold }),
    ...overrides,
  });
}

const pageLinks = () =>
  within(screen.getByRole('navigation', { name: 'Order Book pages' }))
    .getAllByRole('button')
    .map((b) => b.textContent);

function renderBot(path = '/running-bot/b1') {
  return renderFeature(path, <RunningBotRoute />, { signedIn: true, route: '/running-bot/:id' });
}

describe('Running bot page', () => {
  it('shows the header, stats, side panel and the order book with coloured types', async () => {
    botApi(bot());
    renderBot();
    expect(await screen.findByRole('heading', { name: 'BTC/USDT Multigrid Bot' })).toBeInTheDocument();
    // The exchange of the member's key the bot trades on.
    expect(screen.getByTestId('bot-exchange')).toHaveTextContent('OKX');
    expect(screen.getByText('Used Grid').nextSibling).toHaveTextContent('2/5');
    const table = await screen.findByRole('table', { name: 'Order Book' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(21);
    expect(within(rows[1] as HTMLElement).getByText('BUY')).toHaveClass('text-up');
    expect(within(rows[2] as HTMLElement).getByText('SELL')).toHaveClass('text-down');
    expect(within(rows[2] as HTMLElement).getByText('$1.50')).toHaveClass('text-up');
    expect(screen.queryByText('Liquidation Price')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Overbuy Protection' })).toBeInTheDocument();
  });

  it("draws the pair's chart with the bot's levels and its orders, for Multigrid and Scalping alike", async () => {
    botApi(
      bot({
        levels: {
          nextBuy: { grid: 3, price: 57820 },
          takeProfits: [
            { grid: 1, price: 60180, armed: false },
            { grid: 2, price: 59590, armed: false },
          ],
          pause: null,
          restart: null,
          stoploss: 50000,
        },
      }),
    );
    renderBot();
    const chart = await screen.findByTestId('candle-chart');
    expect(chart).toHaveAttribute('data-symbol', 'BTCUSDT');
    expect(chart).toHaveAttribute(
      'data-levels',
      'Next buy (grid 3)@57820|TP grid 1@60180|TP grid 2@59590|Stoploss@50000',
    );
    await waitFor(() => expect(chart).toHaveAttribute('data-trades', '20'));
    expect(screen.getByRole('list', { name: 'Bot levels' })).toHaveTextContent('Next buy (grid 3)57,820.00');
  });

  it('shows a Scalping bot its one take-profit on the average entry', async () => {
    botApi(
      bot({
        botType: 'scalping',
        tradeType: 'scalp',
        levels: {
          nextBuy: { grid: 3, price: 57820 },
          takeProfits: [{ grid: null, price: 60392.5, armed: false }],
          pause: null,
          restart: null,
          stoploss: null,
        },
      }),
    );
    renderFeature('/scalp-running-bot/b1', <ScalpRunningBotRoute />, {
      signedIn: true,
      route: '/scalp-running-bot/:id',
    });
    const chart = await screen.findByTestId('candle-chart');
    expect(chart).toHaveAttribute('data-levels', 'Next buy (grid 3)@57820|Take profit@60392.5');
  });

  it('shows a skipped buy: the grid, its order and the exchange minimum', async () => {
    botApi(
      bot({
        category: 'Future',
        leverage: 3,
        skippedBuy: { grid: 1, notional: 84.7, minNotional: 100, since: '2025-03-01T10:00:00.000Z' },
      }),
    );
    renderBot();
    const title = await screen.findByText('Grid 1 buy skipped');
    const banner = title.closest('[role="status"]');
    expect(banner).toHaveTextContent('Its order of 84.70 USDT is below the exchange minimum of 100 USDT');
  });

  it('shows the dust a stopped bot left in the account', async () => {
    botApi(bot({ status: 'Stopped', dust: { qty: 0.0025974, asset: 'ETH', value: 4.93506 } }));
    renderBot();
    const note = await screen.findByRole('note', { name: 'Dust' });
    expect(note).toHaveTextContent('Dust left: 0.0025974 ETH (≈ 4.94 USDT)');
    expect(note).toHaveTextContent("A remainder below the exchange's minimum order stays in your account.");
  });

  it('shows the dust a running bot carries', async () => {
    botApi(bot({ dust: { qty: 0.0000485, asset: 'ETH', value: 0.0970485 } }));
    renderBot();
    const note = await screen.findByRole('note', { name: 'Dust' });
    expect(note).toHaveTextContent('Dust left: 0.0000485 ETH (≈ 0.10 USDT)');
  });

  it("says a position P&L beside Purchased Qty 0 is the dust's", async () => {
    botApi(bot({ dust: { qty: 0.0000485, asset: 'ETH', value: 0.0970485 } }), 25, {
      'POST /api/purchasedQty': () => json({ totalQuantity: 0, avgPrice: 0, totalpnl: 10.5, pnl: 0.004 }),
    });
    renderBot();
    const stat = (await screen.findByText('Position P&L')).parentElement!;
    expect(stat).toHaveTextContent('$0.00on the dust: 0.0000485 ETH');
  });

  it('shows no dust line for a bot without dust', async () => {
    botApi(bot({ dust: null }));
    renderBot();
    await screen.findByRole('button', { name: 'Edit Overbuy Protection' });
    expect(screen.queryByRole('note', { name: 'Dust' })).not.toBeInTheDocument();
  });

  it("exports the bot's fills as CSV", async () => {
    const api = botApi(bot(), 25, {
      'GET /api/botfills.csv': () =>
        new Response('date,pair\r\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    const created = vi.fn(() => 'blob:fills');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    // The browser saves a clicked download link; the test DOM would navigate to it instead.
    const downloads: { href: string; name: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push({ href: this.getAttribute('href') ?? '', name: this.download });
    });
    const { user } = renderBot();
    await screen.findByRole('table', { name: 'Order Book' });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloads).toEqual([{ href: 'blob:fills', name: 'BTCUSDT-fills.csv' }]));
    expect(api.callsTo('GET', '/api/botfills.csv')[0]?.query).toEqual({ botID: 'b1' });
  });

  it('pages the order book in a window of five, Previous and Next disabled at the ends', async () => {
    const api = botApi(bot(), 9 * 20);
    const { user } = renderBot();
    await screen.findByRole('table', { name: 'Order Book' });
    await waitFor(() => expect(pageLinks()).toEqual(['Previous', '1', '2', '3', '4', '5', 'Next']));
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Page 5' }));
    await waitFor(() => expect(pageLinks()).toEqual(['Previous', '3', '4', '5', '6', '7', 'Next']));
    expect(screen.getByRole('button', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: 'Page 7' }));
    await user.click(await screen.findByRole('button', { name: 'Page 9' }));
    await waitFor(() => expect(pageLinks()).toEqual(['Previous', '5', '6', '7', '8', '9', 'Next']));
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(api.callsTo('POST', '/api/orderbook').some((c) => (c.body as { page: number }).page === 9)).toBe(
      true,
    );
  });

  it('Spot stop dialog: Stop & sell {pair} and Stop, positive PnL in green with a plus', async () => {
    const api = botApi(bot({ totalPnl: 10.5 }));
    const { user } = renderBot();
    await user.click(await screen.findByRole('button', { name: 'Stop Bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Stop Bot' });
    expect(within(dialog).getByRole('button', { name: 'Stop & sell BTCUSDT' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('approx-pnl')).toHaveTextContent('+$10.50');
    expect(within(dialog).getByTestId('approx-pnl')).toHaveClass('text-up');
    expect(dialog).toHaveTextContent('a fresh bot');
    await user.click(within(dialog).getByRole('button', { name: 'Stop & sell BTCUSDT' }));
    expect(await screen.findByText(botMessages.stoppedSold)).toBeInTheDocument();
    await waitFor(() => expect(currentUrl()).toBe('/dashboard'));
    expect(api.callsTo('POST', '/api/stopbotwithsell')[0]?.body).toMatchObject({
      botID: 'b1',
      totalPnl: 10.5,
    });
  });

  it('says "stop requested" while the sale is under way, and shows the bot Stopping without a Stop button', async () => {
    let summary = bot();
    botApi(summary, 25, {
      'POST /api/botinfo': () => json(summary),
      'POST /api/stopbotwithsell': () => {
        summary = bot({ status: 'Stopping' });
        return json({ success: true, stopping: true, message: botMessages.stopRequested }, 202);
      },
    });
    const { user } = renderBot();
    await user.click(await screen.findByRole('button', { name: 'Stop Bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Stop Bot' });
    await user.click(within(dialog).getByRole('button', { name: 'Stop & sell BTCUSDT' }));
    expect(await screen.findByText(botMessages.stopRequested)).toBeInTheDocument();
    expect(currentUrl()).toBe('/running-bot/b1');
    expect(await screen.findByText(/This bot is stopping: its final sale is under way/)).toBeInTheDocument();
    expect(screen.getAllByText('Stopping').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Stop Bot' })).not.toBeInTheDocument();
  });

  it('shows why a stop and sell failed, never "sold"', async () => {
    const reason = `${botMessages.stopSellFailed}: Insufficient balance.`;
    botApi(bot(), 25, { 'POST /api/stopbotwithsell': () => json({ message: reason }, 400) });
    const { user } = renderBot();
    await user.click(await screen.findByRole('button', { name: 'Stop Bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Stop Bot' });
    await user.click(within(dialog).getByRole('button', { name: 'Stop & sell BTCUSDT' }));
    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(currentUrl()).toBe('/running-bot/b1');
  });

  it('Future stop dialog: Stop & Close Position and Stop, zero or negative PnL in red; liquidation in red', async () => {
    const api = botApi(
      bot({
        id: 's1',
        botType: 'scalping',
        tradeType: 'scalp',
        category: 'Future',
        leverage: 3,
        totalPnl: -4,
      }),
    );
    const { user } = renderFeature('/scalp-running-bot/s1', <ScalpRunningBotRoute />, {
      signedIn: true,
      route: '/scalp-running-bot/:id',
    });
    expect(await screen.findByRole('heading', { name: 'BTC/USDT Scalping Bot' })).toBeInTheDocument();
    expect(await screen.findByText('41,000.00')).toHaveClass('text-down');
    await user.click(screen.getByRole('button', { name: 'Stop Bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Stop Bot' });
    expect(within(dialog).getByRole('button', { name: 'Stop & Close Position' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('approx-pnl')).toHaveTextContent('-$4.00');
    expect(within(dialog).getByTestId('approx-pnl')).toHaveClass('text-down');
    await user.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(await screen.findByText(botMessages.stopped)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/scalpstopbot')).toHaveLength(1);
    expect(api.callsTo('POST', '/api/scalpstopbotwithsell')).toHaveLength(0);
  });

  it('SLTP dialog checks the prices against the live price, saves and resets', async () => {
    const api = botApi(bot());
    const { user } = renderBot();
    await user.click(await screen.findByRole('button', { name: 'Edit Pause Price' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Stop Loss Take Profit' });
    expect(within(dialog).getByTestId('sltp-live-price')).toHaveTextContent('60,000.00');
    await user.type(within(dialog).getByLabelText('Pause Price'), '59000');
    await user.type(within(dialog).getByLabelText('Stoploss Price'), '61000');
    await user.type(within(dialog).getByLabelText('Restart Price'), 'soon');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByText(botMessages.pauseAboveLive)).toBeInTheDocument();
    expect(within(dialog).getByText(botMessages.stoplossBelowLive)).toBeInTheDocument();
    expect(within(dialog).getByText(botMessages.priceNumber)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/sltpedit')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Pause Price'));
    await user.type(within(dialog).getByLabelText('Pause Price'), '65000');
    await user.clear(within(dialog).getByLabelText('Stoploss Price'));
    await user.type(within(dialog).getByLabelText('Stoploss Price'), '50000');
    await user.clear(within(dialog).getByLabelText('Restart Price'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(botMessages.sltpUpdated)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/sltpedit')[0]?.body).toEqual({
      botID: 'b1',
      sellAllAndPausePrice: 65000,
      restartPrice: null,
      stoplossPrice: 50000,
    });
    // Saved, the dialog closes; the page behind is usable again once it has gone.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Edit Stoploss Price' }));
    const again = await screen.findByRole('dialog', { name: 'Edit Stop Loss Take Profit' });
    await user.click(within(again).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText(botMessages.sltpReset)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/sltpedit')[1]?.body).toEqual({
      botID: 'b1',
      sellAllAndPausePrice: null,
      restartPrice: null,
      stoplossPrice: null,
    });
  });

  it('checks overbuy protection (1 to grids-1)', async () => {
    const api = botApi(bot(), 3, {
      'POST /api/gridprotectionadd': () => json({ message: botMessages.overbuySaved }),
      'POST /api/editprofitbookat': () => json({ message: botMessages.profitBookSaved }),
    });
    const { user } = renderBot();
    await user.click(await screen.findByRole('button', { name: 'Edit Overbuy Protection' }));
    const overbuy = await screen.findByRole('dialog', { name: 'Overbuy Grid Protection' });
    await user.type(within(overbuy).getByLabelText('Overbuy Grid Protection'), '5');
    await user.click(within(overbuy).getByRole('button', { name: 'Save Changes' }));
    expect(within(overbuy).getByText(botMessages.overbuyRange(4))).toBeInTheDocument();
    await user.clear(within(overbuy).getByLabelText('Overbuy Grid Protection'));
    await user.type(within(overbuy).getByLabelText('Overbuy Grid Protection'), '3');
    await user.click(within(overbuy).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(botMessages.overbuySaved)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/gridprotectionadd')[0]?.body).toEqual({
      botID: 'b1',
      overbuyProtectionValue: 3,
      protectionActive: true,
    });
    expect(reloadPageSoon).toHaveBeenCalledTimes(1);
  });

  it('checks profit book (1 to 1000)', async () => {
    const api = botApi(bot(), 3, {
      'POST /api/editprofitbookat': () => json({ message: botMessages.profitBookSaved }),
    });
    const { user } = renderBot();
    await user.click(await screen.findByRole('button', { name: 'Edit Profit book & stop at' }));
    const book = await screen.findByRole('dialog', { name: 'Profit book & stop at (%)' });
    await user.type(within(book).getByLabelText('Profit book & stop at (%)'), '0.5');
    await user.click(within(book).getByRole('button', { name: 'Save Changes' }));
    expect(within(book).getByText(botMessages.profitBookMin)).toBeInTheDocument();
    await user.clear(within(book).getByLabelText('Profit book & stop at (%)'));
    await user.type(within(book).getByLabelText('Profit book & stop at (%)'), '25');
    await user.click(within(book).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(botMessages.profitBookSaved)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/editprofitbookat')[0]?.body).toEqual({
      botID: 'b1',
      profitBookValue: 25,
    });
    expect(reloadPageSoon).toHaveBeenCalledTimes(1);
  });

  it('shows the halt reason, and a not-found state for an unknown bot', async () => {
    botApi(bot({ status: 'Pause', haltReason: 'Orders kept failing: exchange unavailable.' }));
    renderBot();
    expect(await screen.findByRole('alert')).toHaveTextContent('Orders kept failing: exchange unavailable.');
  });

  it('resumes a bot the system paused, and says why when it cannot', async () => {
    const halted = bot({ status: 'Pause', haltReason: 'Orders keep failing: insufficient balance.' });
    let answer = json({ message: 'Connect your exchange API keys in API Setting first.' }, 400);
    const api = botApi(halted, 25, { 'POST /api/resumebot': () => answer });
    const { user } = renderBot();
    const resume = await screen.findByRole('button', { name: 'Resume trading' });
    await user.click(resume);
    expect(
      await screen.findByText('Connect your exchange API keys in API Setting first.'),
    ).toBeInTheDocument();
    answer = json({ success: true, message: botMessages.resumed });
    await user.click(resume);
    expect(await screen.findByText(botMessages.resumed)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/resumebot').map((c) => c.body)).toEqual([
      { botID: 'b1' },
      { botID: 'b1' },
    ]);
  });

  it('asks a bot whose coins were sold outside the platform to re-buy or drop them, then resumes it', async () => {
    const reason = missingCoinsReason('0.0498', '0.1998', 'ETH');
    const halted = bot({ status: 'Pause', haltReason: reason });
    const api = botApi(halted, 25, {
      'POST /api/resumebot': () => json({ success: true, message: botMessages.resumed }),
    });
    const { user } = renderBot();
    await user.click(await screen.findByRole('button', { name: 'Resume trading' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resume trading' });
    expect(dialog).toHaveTextContent(reason);
    // Nothing is sent before a choice is made and confirmed.
    const confirm = within(dialog).getByRole('button', { name: 'Confirm and resume' });
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByRole('radio', { name: /Drop the missing lots/ }));
    expect(api.callsTo('POST', '/api/resumebot')).toEqual([]);
    await user.click(within(dialog).getByRole('radio', { name: /Re-buy the missing quantity/ }));
    await user.click(confirm);
    expect(await screen.findByText(botMessages.resumed)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/resumebot').map((c) => c.body)).toEqual([
      { botID: 'b1', missingLots: 'rebuy' },
    ]);
  });

  it('answers 404 with Bot not found', async () => {
    mockApi({ 'POST /api/botinfo': () => json({ message: botMessages.botNotFound }, 404) });
    renderBot('/running-bot/nope');
    expect(await screen.findByText('Bot not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toBeInTheDocument();
  });

  it('says the order book is empty before the first order', async () => {
    botApi(bot(), 0);
    renderBot();
    expect(
      await screen.findByText("No orders yet. The bot's buys and sells appear here."),
    ).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Order Book pages' })).not.toBeInTheDocument();
  });

  it('lists the orders in a card narrower than the table, as beside the sidebar on a tablet', async () => {
    // The order book's card at 768 px is about 460 px wide.
    boxesLaidOutAt(400);
    botApi(bot());
    renderBot();
    const list = await screen.findByRole('list', { name: 'Order Book' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    expect(screen.queryByRole('table', { name: 'Order Book' })).not.toBeInTheDocument();
  });

  describe('on a phone (below 768 px)', () => {
    it('lists each order on two lines: side, quantity and price; date, PnL and amount', async () => {
      onPhoneWidth();
      botApi(bot());
      renderBot();
      const list = await screen.findByRole('list', { name: 'Order Book' });
      expect(screen.queryByRole('table', { name: 'Order Book' })).not.toBeInTheDocument();
      const items = within(list).getAllByRole('listitem');
      expect(items).toHaveLength(20);
      const sell = items[1] as HTMLElement;
      expect(within(sell).getByText('SELL')).toHaveClass('text-down');
      expect(sell).toHaveTextContent('SELL 0.001 @ 59,999.00');
      expect(within(sell).getByText('$1.50')).toHaveClass('text-up');
      expect(sell).toHaveTextContent('Amount $60.00');
      expect(within(items[0] as HTMLElement).getByText('BUY')).toHaveClass('text-up');
      expect(pageLinks()).toEqual(['Previous', '1', '2', 'Next']);
    });
  });
});

describe('why a bot is not trading', () => {
  it('shows the stop reason of a bot its stoploss stopped', async () => {
    botApi(bot({ status: 'Stopped', stopReason: 'stoploss', stoploss_and_stopbot_at_price: 55000 }));
    renderBot();
    expect(await screen.findByTestId('bot-reason')).toHaveTextContent('Stopped by its stoploss price');
  });

  it('explains a pause at the pause price and opens the price limits to continue', async () => {
    botApi(bot({ status: 'Pause', sell_all_and_pause_at_price: 61000, restart_at_price: null }));
    const { user } = renderBot();
    const banner = await screen.findByTestId('bot-reason');
    expect(banner).toHaveTextContent('Paused at its pause price 61000');
    expect(banner).toHaveTextContent('set one to let it trade again');
    await user.click(within(banner).getByRole('button', { name: 'Edit price limits' }));
    expect(await screen.findByRole('dialog', { name: 'Edit Stop Loss Take Profit' })).toBeInTheDocument();
  });

  it('resumes a bot paused at its pause price once the user has read what it will do', async () => {
    const paused = bot({
      status: 'Pause',
      liveprice: 61500,
      sell_all_and_pause_at_price: 61000,
      restart_at_price: 55000,
      stoploss_and_stopbot_at_price: 50000,
    });
    const api = botApi(paused, 25, {
      'POST /api/resumepausedbot': () => json({ success: true, message: botMessages.resumedFromPause }),
    });
    const { user } = renderBot();
    const banner = await screen.findByTestId('bot-reason');
    await user.click(within(banner).getByRole('button', { name: 'Resume' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resume the bot now?' });
    expect(dialog).toHaveTextContent(
      'The bot goes Live at once: it buys grid 1 of BTC at the market price (now 61,500.00 USDT)',
    );
    expect(dialog).toHaveTextContent(
      'Its pause price 61,000.00 and restart price 55,000.00 are removed with the pause they made: near the pause price the bot would sell and pause again.',
    );
    expect(dialog).toHaveTextContent('The stoploss price stays.');
    expect(api.callsTo('POST', '/api/resumepausedbot')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Resume now' }));
    expect(await screen.findByText(botMessages.resumedFromPause)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/resumepausedbot').map((c) => c.body)).toEqual([{ botID: 'b1' }]);
  });

  it('offers a bot the system paused its own Resume, not the one of a price pause', async () => {
    botApi(bot({ status: 'Pause', haltReason: 'Orders kept failing: exchange unavailable.' }));
    renderBot();
    expect(await screen.findByRole('button', { name: 'Resume trading' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resume' })).not.toBeInTheDocument();
  });
});

describe('add funds to a running bot', () => {
  it('checks the amount, says what it does to the investment and the grids, and sends it', async () => {
    let answer = json(
      {
        message:
          'Insufficient available balance: 4000.00 USDT free in your spot wallet; adding 5000.00 USDT needs 5000.00 USDT including fees.',
      },
      400,
    );
    const api = botApi(bot(), 25, {
      'GET /api/spotBalance': () => json({ spotusdtAmount: '4000', committedUsdt: '1000' }),
      'POST /api/addbotfunds': () => answer,
    });
    const { user } = renderBot();
    await user.click(await screen.findByRole('button', { name: 'Add funds' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add funds' });
    expect(await within(dialog).findByText('Available in your spot wallet: $4,000.00')).toBeInTheDocument();
    const amount = within(dialog).getByLabelText('Amount (USDT)');

    await user.type(amount, '5');
    await user.click(within(dialog).getByRole('button', { name: 'Add funds' }));
    expect(await within(dialog).findByText(botMessages.addFundsMin(10))).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/addbotfunds')).toEqual([]);

    // 1000 + 5000: every grid's share grows by 500 %.
    await user.type(amount, '000');
    expect(within(dialog).queryByText(botMessages.addFundsMin(10))).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('investment-after')).toHaveTextContent('$6,000.00');
    expect(within(dialog).getByTestId('add-funds-effect')).toHaveTextContent(
      "Every grid's share of the investment grows by 500.00%.",
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add funds' }));
    expect(
      await within(dialog).findByText(/^Insufficient available balance: 4000\.00 USDT free/),
    ).toBeInTheDocument();

    // 1000 + 250 = 1250: 25 % more for every grid.
    answer = json({ success: true, message: botMessages.fundsAdded('250', '1250'), investment: '1250' });
    await user.clear(amount);
    await user.type(amount, '250');
    expect(within(dialog).getByTestId('investment-after')).toHaveTextContent('$1,250.00');
    expect(within(dialog).getByTestId('add-funds-effect')).toHaveTextContent('grows by 25.00%');
    await user.click(within(dialog).getByRole('button', { name: 'Add funds' }));
    expect(await screen.findByText(botMessages.fundsAdded('250', '1250'))).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/addbotfunds').map((c) => c.body)).toEqual([
      { botID: 'b1', amount: '5000' },
      { botID: 'b1', amount: '250' },
    ]);
  });

  it('offers no Add funds to a stopped bot', async () => {
    botApi(bot({ status: 'Stopped', stopReason: 'manual' }));
    renderBot();
    expect(await screen.findByTestId('bot-reason')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add funds' })).not.toBeInTheDocument();
  });
});

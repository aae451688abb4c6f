import type { HistoryRow } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import HistoryRoute from '../../../app/routes/history';
import { boxesLaidOutAt } from '../../../testing/box-width';
import { json, mockApi } from '../../../testing/mock-api';
import { onPhoneWidth } from '../../../testing/phone-width';
import { renderFeature } from '../../../testing/render-feature';

function row(i: number, overrides: Partial<HistoryRow> = {}): HistoryRow {
  return {
    id: `h${i}`,
    symbol: 'BTCUSDT',
    strategy_name: `S${i}`,
    runtime: 1.25,
    investment: 1000,
    profit: 12,
    lossbook: -3,
    totalpnl: 9,
    roi: 0.9,
    botstarttime: '2025-03-01T10:00:00Z',
    botstoptime: '2025-03-02T10:00:00Z',
    stopAt: 61000,
    trades: 14,
    category: 'Spot',
    stopReason: null,
    positionLeftOpen: false,
    exchange: 'Bybit',
    ...overrides,
  };
}

/** docs/spec/01-core-screens.md History columns of the Multigrid and Scalping tabs. */
const BOT_COLUMNS = [
  'Symbol',
  'Strategy',
  'Runtime',
  'Investment',
  'Profit Book',
  'Loss Book',
  'Total PnL',
  'ROI(%)',
  'Bot Started At',
  'Bot Stopped At',
  'Reason',
  'Closed price',
  'Total Orders',
];

const headers = () =>
  within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    // The sort arrows are decoration (aria-hidden); the header is the text before them.
    .map((h) => h.textContent?.replace(/[↕▲▼]/g, ''));

describe('History', () => {
  it('lists stopped bots with the spec columns, System Strategy and NA defaults', async () => {
    mockApi({
      'GET /api/bothistory': () => json({ rows: [row(1, { strategy_name: '', lossbook: null })] }),
      'GET /api/scalpbothistory': () => json({ rows: [row(2, { symbol: 'ETHUSDT' })] }),
    });
    const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Multigrid history' });
    await waitFor(() => expect(within(table).getByText('BTC/USDT')).toBeInTheDocument());
    expect(headers()).toEqual(BOT_COLUMNS);
    expect(within(table).getByText('System Strategy')).toBeInTheDocument();
    expect(within(table).getByText('NA')).toBeInTheDocument();
    // The exchange of the member's key the bot traded on: a badge under the pair, in the symbol's cell.
    expect(within(table).getByTestId('history-exchange')).toHaveTextContent('Bybit');
    expect(within(table).getByTestId('history-exchange').closest('td')).toHaveTextContent('BTC/USDTBybit');
    expect(within(table).getByText('61,000.00')).toBeInTheDocument();
    // Started and stopped at: the day over the time, two short lines that keep the table narrow.
    expect(within(table).getByText('01 Mar 2025')).toBeInTheDocument();
    expect(within(table).getByText('02 Mar 2025')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Scalping' }));
    await waitFor(() => expect(within(screen.getByRole('table')).getByText('ETH/USDT')).toBeInTheDocument());
  });

  it('shows a futures bot stopped without a sale as "Position left open", never as a profit', async () => {
    mockApi({
      'GET /api/bothistory': () =>
        json({
          rows: [
            row(1, {
              symbol: 'ETHUSDT',
              category: 'Future',
              totalpnl: 4,
              stopAt: null,
              positionLeftOpen: true,
            }),
            row(2),
          ],
        }),
    });
    const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Multigrid history' });
    const open = await within(table).findByText('Position left open');
    expect(open.closest('tr')).toHaveTextContent('ETH/USDT');
    await user.selectOptions(screen.getByLabelText('Outcome'), 'profit');
    await waitFor(() => expect(within(table).queryByText('ETH/USDT')).not.toBeInTheDocument());
    expect(within(table).getByText('BTC/USDT')).toBeInTheDocument();
  });

  it('lists stopped cycles from /api/cyclebothistory without Runtime and Total Orders', async () => {
    const api = mockApi({
      'GET /api/bothistory': () => json({ rows: [] }),
      'GET /api/cyclebothistory': () =>
        json({ rows: [row(3, { symbol: 'SOLUSDT', strategy_name: '', runtime: 4.5, trades: 6 })] }),
    });
    const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    await screen.findByRole('table', { name: 'Multigrid history' });
    await user.click(screen.getByRole('tab', { name: 'Cycle' }));
    const table = await screen.findByRole('table', { name: 'Cycle history' });
    expect(await within(table).findByText('SOL/USDT')).toBeInTheDocument();
    expect(headers()).toEqual(BOT_COLUMNS.filter((c) => c !== 'Runtime' && c !== 'Total Orders'));
    expect(within(table).getAllByRole('cell')).toHaveLength(11);
    expect(within(table).queryByText('4.50 days')).not.toBeInTheDocument();
    expect(api.callsTo('GET', '/api/cyclebothistory')).toHaveLength(1);
  });

  it('says No Records Found on an empty Cycle tab, and when loading fails', async () => {
    let fail = false;
    mockApi({
      'GET /api/bothistory': () => json({ rows: [] }),
      'GET /api/cyclebothistory': () => (fail ? json({ message: 'down' }, 500) : json({ rows: [] })),
    });
    const { user, queryClient } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    await screen.findByRole('table', { name: 'Multigrid history' });
    await user.click(screen.getByRole('tab', { name: 'Cycle' }));
    await screen.findByRole('table', { name: 'Cycle history' });
    expect(await screen.findByText('No Records Found.')).toBeInTheDocument();
    fail = true;
    queryClient.setDefaultOptions({ queries: { retry: false } });
    await queryClient.resetQueries({ queryKey: ['history', 'cycle'] });
    expect(await screen.findByText('Could not load the history. Please try again.')).toBeInTheDocument();
  });

  it('pages 20 rows at a time with a window of five', async () => {
    mockApi({
      'GET /api/bothistory': () => json({ rows: Array.from({ length: 130 }, (_, i) => row(i)) }),
    });
    const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Multigrid history' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(21));
    const nav = screen.getByRole('navigation', { name: 'History pages' });
    expect(
      within(nav)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Previous', '1', '2', '3', '4', '5', 'Next']);
    await user.click(within(nav).getByRole('button', { name: 'Page 5' }));
    await user.click(within(nav).getByRole('button', { name: 'Page 7' }));
    expect(within(nav).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(within(table).getByText('S120')).toBeInTheDocument();
  });

  it('shows the cards in a box narrower than the table, as beside the sidebar on a tablet', async () => {
    // History at 1024 px beside the sidebar is about 700 px wide.
    boxesLaidOutAt(700);
    mockApi({ 'GET /api/bothistory': () => json({ rows: [row(1), row(2)] }) });
    renderFeature('/history', <HistoryRoute />, { signedIn: true });
    const list = await screen.findByRole('list', { name: 'Multigrid history' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  describe('on a phone (below 768 px)', () => {
    it('shows each row as a card with every field of the table, coloured by sign', async () => {
      onPhoneWidth();
      mockApi({
        'GET /api/bothistory': () =>
          json({ rows: [row(1, { strategy_name: '', totalpnl: -4, roi: -0.4 }), row(2)] }),
        'GET /api/cyclebothistory': () => json({ rows: [row(3, { symbol: 'SOLUSDT' })] }),
      });
      const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
      const list = await screen.findByRole('list', { name: 'Multigrid history' });
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
      const first = within(list).getAllByRole('listitem')[0] as HTMLElement;
      expect(within(first).getByText('BTC/USDT')).toBeInTheDocument();
      expect(within(first).getByText('System Strategy')).toBeInTheDocument();
      const terms = within(first)
        .getAllByRole('term')
        .map((t) => t.textContent);
      // Symbol and Strategy head the card; every other column is a labelled field.
      expect(terms).toEqual(BOT_COLUMNS.slice(2));
      expect(within(first).getByText('-0.40%')).toHaveClass('text-down');
      expect(within(first).getByText('1.25 days')).toBeInTheDocument();

      await user.click(screen.getByRole('tab', { name: 'Cycle' }));
      const cycles = await screen.findByRole('list', { name: 'Cycle history' });
      await waitFor(() => expect(within(cycles).getByText('SOL/USDT')).toBeInTheDocument());
      expect(within(cycles).queryByText('Runtime')).not.toBeInTheDocument();
      expect(within(cycles).queryByText('Total Orders')).not.toBeInTheDocument();
    });
  });
});

describe('History filters, sorting and export', () => {
  const rows = [
    row(1, { symbol: 'BTCUSDT', totalpnl: 9, roi: 0.9, botstoptime: '2025-03-02T10:00:00Z' }),
    row(2, { symbol: 'ETHUSDT', totalpnl: -4, roi: -0.4, botstoptime: '2025-03-06T10:00:00Z' }),
    row(3, { symbol: 'ETHUSDT', totalpnl: 20, roi: 2, botstoptime: '2025-03-09T10:00:00Z' }),
  ];
  const symbols = () =>
    within(screen.getByRole('table'))
      .getAllByRole('row')
      .slice(1)
      // The pair, the first line of the symbol's cell (the exchange's badge is under it).
      .map((r) => r.querySelector('td > span')?.textContent);

  it('filters by pair, outcome and stop date, and sorts by a column', async () => {
    mockApi({ 'GET /api/bothistory': () => json({ rows }) });
    const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    await waitFor(() => expect(symbols()).toEqual(['BTC/USDT', 'ETH/USDT', 'ETH/USDT']));
    await user.selectOptions(screen.getByLabelText('Pair'), 'ETHUSDT');
    expect(symbols()).toHaveLength(2);
    await user.selectOptions(screen.getByLabelText('Outcome'), 'loss');
    expect(symbols()).toEqual(['ETH/USDT']);
    await user.selectOptions(screen.getByLabelText('Outcome'), '');
    await user.selectOptions(screen.getByLabelText('Pair'), '');
    await user.type(screen.getByLabelText('Stopped from'), '2025-03-05');
    expect(symbols()).toEqual(['ETH/USDT', 'ETH/USDT']);
    await user.clear(screen.getByLabelText('Stopped from'));

    await user.click(screen.getByRole('button', { name: /ROI\(%\)/ }));
    const roiHeader = screen.getByRole('columnheader', { name: /ROI/ });
    expect(roiHeader).toHaveAttribute('aria-sort', 'descending');
    expect(
      within(screen.getByRole('table'))
        .getAllByText(/^-?\d+\.\d{2}%$/)
        .map((c) => c.textContent),
    ).toEqual(['2.00%', '0.90%', '-0.40%']);
    await user.click(screen.getByRole('button', { name: /ROI\(%\)/ }));
    expect(roiHeader).toHaveAttribute('aria-sort', 'ascending');
  });

  it('shows why each bot stopped and filters by that reason', async () => {
    mockApi({
      'GET /api/bothistory': () =>
        json({
          rows: [
            row(1, { symbol: 'BTCUSDT', stopReason: 'stoploss' }),
            row(2, { symbol: 'ETHUSDT', stopReason: 'manual' }),
          ],
        }),
    });
    const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    await waitFor(() => expect(symbols()).toEqual(['BTC/USDT', 'ETH/USDT']));
    const table = screen.getByRole('table');
    expect(within(table).getByText('Stopped by its stoploss price')).toBeInTheDocument();
    expect(within(table).getByText('Stopped by you')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Reason'), 'stoploss');
    expect(symbols()).toEqual(['BTC/USDT']);
  });

  it('lists stopped range grids on the Grid tab with their grid profit, matched trades and stop reason, and exports their fills', async () => {
    const api = mockApi({
      'GET /api/bothistory': () => json({ rows: [] }),
      'GET /api/gridhistory': () =>
        json({
          rows: [
            row(1, {
              symbol: 'ETHUSDT',
              strategy_name: 'Spot Grid',
              profit: 5.9106,
              gridProfit: 5.9106,
              matchedTrades: 1,
              lossbook: null,
              totalpnl: 7.3788,
              trades: 4,
              stopAt: 2010,
              stopReason: 'manual_sell',
            }),
            row(2, { symbol: 'SOLUSDT', gridProfit: 0, matchedTrades: 0, stopReason: 'take_profit' }),
          ],
        }),
      'GET /api/historyfills.csv': () =>
        new Response('date,pair\r\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    // An address the test page can stand on after the download link's click (a blob: one would leave it there).
    const created = vi.fn(() => 'http://localhost/history');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Grid' }));
    const table = await screen.findByRole('table', { name: 'Grid history' });
    await waitFor(() => expect(within(table).getByText('ETH/USDT')).toBeInTheDocument());
    expect(headers()).toEqual([
      'Symbol',
      'Strategy',
      'Runtime',
      'Investment',
      'Grid Profit',
      'Total PnL',
      'ROI(%)',
      'Bot Started At',
      'Bot Stopped At',
      'Reason',
      'Closed price',
      'Matched Trades',
      'Total Orders',
    ]);
    const eth = within(table).getByText('ETH/USDT').closest('tr') as HTMLElement;
    expect(within(eth).getByText('$5.91')).toBeInTheDocument();
    expect(within(eth).getByText('Stopped and sold by you')).toBeInTheDocument();
    expect(within(eth).getByText('2,010.00')).toBeInTheDocument();
    expect(within(table).getByText('Stopped at its take-profit price')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Reason'), 'take_profit');
    expect(symbols()).toEqual(['SOL/USDT']);
    await user.click(screen.getByRole('button', { name: 'Export fills (CSV)' }));
    await waitFor(() => expect(api.callsTo('GET', '/api/historyfills.csv')).toHaveLength(1));
    expect(api.callsTo('GET', '/api/historyfills.csv')[0]?.query).toEqual({
      type: 'range',
      reason: 'take_profit',
    });
  });
  it('exports the fills of the listed bots as CSV with the same filters', async () => {
    const api = mockApi({
      'GET /api/bothistory': () => json({ rows }),
      'GET /api/historyfills.csv': () =>
        new Response('date,pair\r\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    const created = vi.fn(() => 'blob:history');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const { user } = renderFeature('/history', <HistoryRoute />, { signedIn: true });
    await waitFor(() => expect(symbols()).toHaveLength(3));
    await user.selectOptions(screen.getByLabelText('Outcome'), 'profit');
    await user.click(screen.getByRole('button', { name: 'Export fills (CSV)' }));
    await waitFor(() => expect(created).toHaveBeenCalled());
    expect(api.callsTo('GET', '/api/historyfills.csv')[0]?.query).toEqual({
      type: 'multigrid',
      outcome: 'profit',
    });
  });
});

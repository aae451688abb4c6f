import { botMessages, cycleMessages, type LiveCycle, missingCoinsReason } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import CycleRoute from '../../../app/routes/cycle';
import { deferred, json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

vi.mock('../../market/components/candle-chart', () => ({ CandleChart: () => null }));

function cycle(overrides: Partial<LiveCycle> = {}): LiveCycle {
  return {
    id: 'c1',
    pair: 'BTCUSDT',
    category: 'Spot',
    leverage: 1,
    status: 'Live',
    phase: 'WaitBuy',
    haltReason: null,
    liveprice: 2000,
    runtime: 1.5,
    investment: 100,
    profit: 4.2,
    cycles_completed: 2,
    no_of_cycle: 5,
    last_bought_price: null,
    buy_price: 1900,
    sell_price: 2100,
    stop_loss: 1600,
    sparklineData: [1990, 2000, 2010],
    createdAt: '2025-03-01T10:00:00Z',
    ...overrides,
  };
}

const holding = cycle({
  id: 'c2',
  pair: 'ETHUSDT',
  category: 'Future',
  leverage: 3,
  status: 'Pause',
  phase: 'Holding',
  haltReason: 'Halted after repeated exchange errors.',
  last_bought_price: 2950,
  cycles_completed: 1,
  no_of_cycle: 4,
  stop_loss: null,
});

function cyclesApi(cycles: LiveCycle[], overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/livecycles': () => json({ cycles }),
    'GET /api/candles': () => json({ candles: [] }),
    'POST /api/liveprice': () => json({ pair: 'BTCUSDT', price: '2000' }),
    'POST /api/editcycle': () => json({ message: cycleMessages.updated }),
    'POST /api/stopcycle': () => json({ message: cycleMessages.stopped }),
    'POST /api/stopcyclewithsell': () => json({ message: cycleMessages.stoppedSold }),
    ...overrides,
  });
}

const card = (name: string) => screen.findByRole('article', { name });

describe('Live Cycles', () => {
  it('shows each cycle with its market, status, prices, money and progress', async () => {
    cyclesApi([cycle(), holding]);
    renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    const btc = await card('BTC/USDT cycle');
    expect(within(btc).getByText('Live')).toBeInTheDocument();
    expect(within(btc).getByText('Spot')).toBeInTheDocument();
    expect(within(btc).queryByText('1x')).not.toBeInTheDocument();
    expect(within(btc).getByText('1,900.00')).toBeInTheDocument();
    expect(within(btc).getByText('2,100.00')).toBeInTheDocument();
    expect(within(btc).getByText('1,600.00')).toBeInTheDocument();
    expect(within(btc).getByText('$100.00')).toBeInTheDocument();
    expect(within(btc).getByText('+$4.20')).toBeInTheDocument();
    expect(within(btc).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '2');
    expect(within(btc).getByTestId('cycle-progress-text')).toHaveTextContent('2/5');

    const eth = await card('ETH/USDT cycle');
    expect(within(eth).getByText('Pause')).toBeInTheDocument();
    expect(within(eth).getByText('3x')).toBeInTheDocument();
    expect(within(eth).getByText('Not set')).toBeInTheDocument();
    expect(within(eth).getByText('Halted after repeated exchange errors.')).toBeInTheDocument();
    // Half a cycle while a bought position is held (docs/spec/02-bots-wallet-account.md §4).
    const progress = within(eth).getByRole('progressbar');
    expect(progress).toHaveAttribute('aria-valuenow', '1.5');
    expect(progress).toHaveAttribute('aria-valuemax', '4');
    expect(within(eth).getByTestId('cycle-progress-text')).toHaveTextContent('1.5/4');
  });

  it('shows loading, then an empty state', async () => {
    const reply = deferred();
    cyclesApi([], { 'GET /api/livecycles': () => reply.promise });
    renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    expect(await screen.findByRole('status', { name: 'Loading live cycles' })).toBeInTheDocument();
    reply.resolve(json({ cycles: [] }));
    expect(await screen.findByText('No live cycles')).toBeInTheDocument();
  });

  it('shows an error with Retry when the list cannot be loaded', async () => {
    let fail = true;
    cyclesApi([], {
      'GET /api/livecycles': () =>
        fail ? json({ message: 'Exchange unavailable' }, 400) : json({ cycles: [cycle()] }),
    });
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your live cycles. Exchange unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await card('BTC/USDT cycle')).toBeInTheDocument();
  });

  it('offers only Stop when nothing is held, and stops the cycle', async () => {
    const api = cyclesApi([cycle()]);
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await user.click(
      within(await card('BTC/USDT cycle')).getByRole('button', { name: 'Stop BTC/USDT cycle' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Stop Cycle' });
    expect(within(dialog).queryByRole('button', { name: 'Stop & Sell' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Stop' }));
    expect(await screen.findByText(cycleMessages.stopped)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/stopcycle')[0]?.body).toEqual({ cycle_id: 'c1' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('offers Stop & Sell and Stop while holding, and sells on Stop & Sell', async () => {
    const api = cyclesApi([holding]);
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await user.click(
      within(await card('ETH/USDT cycle')).getByRole('button', { name: 'Stop ETH/USDT cycle' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Stop Cycle' });
    expect(within(dialog).getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Stop & Sell' }));
    expect(await screen.findByText(cycleMessages.stoppedSold)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/stopcyclewithsell')[0]?.body).toEqual({ cycle_id: 'c2' });
    expect(api.callsTo('POST', '/api/stopcycle')).toHaveLength(0);
  });

  it.each([
    ['Stop', '/api/stopcycle', 409, cycleMessages.stopFailed],
    ['Stop', '/api/stopcycle', 500, cycleMessages.stopError],
    ['Stop & Sell', '/api/stopcyclewithsell', 409, cycleMessages.stopSellFailed],
    ['Stop & Sell', '/api/stopcyclewithsell', 500, cycleMessages.stopSellError],
  ])('says the spec failure when %s (%s) answers %i', async (button, path, status, shown) => {
    cyclesApi([holding], { [`POST ${path}`]: () => json({ message: cycleMessages.notRunning }, status) });
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await user.click(
      within(await card('ETH/USDT cycle')).getByRole('button', { name: 'Stop ETH/USDT cycle' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Stop Cycle' });
    await user.click(within(dialog).getByRole('button', { name: button }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Confirm Stop Cycle' })).toBeInTheDocument();
  });

  it('resumes a halted cycle, with the reason when the server refuses', async () => {
    let refuse = true;
    const api = cyclesApi([cycle(), holding], {
      'POST /api/resumecycle': () =>
        refuse
          ? json({ message: 'Connect your exchange API keys in API Setting first.' }, 400)
          : json({ success: true, message: cycleMessages.resumed }),
    });
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    const btc = await card('BTC/USDT cycle');
    expect(within(btc).queryByRole('button', { name: 'Resume BTC/USDT cycle' })).not.toBeInTheDocument();
    const resume = within(await card('ETH/USDT cycle')).getByRole('button', {
      name: 'Resume ETH/USDT cycle',
    });
    await user.click(resume);
    expect(await screen.findByText(cycleMessages.resumeFailed)).toBeInTheDocument();
    expect(screen.getByText('Connect your exchange API keys in API Setting first.')).toBeInTheDocument();
    refuse = false;
    await user.click(resume);
    expect(await screen.findByText(cycleMessages.resumed)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/resumecycle').map((c) => c.body)).toEqual([
      { cycle_id: 'c2' },
      { cycle_id: 'c2' },
    ]);
  });

  it('asks what to do about coins sold outside the platform before it resumes, and shows a refused re-buy', async () => {
    const reason = missingCoinsReason('0', '0.05', 'ETH', 'cycle');
    const refusal = botMessages.rebuyUnaffordable('0.05', 'ETH', '100.00', '1.00');
    const api = cyclesApi([{ ...holding, category: 'Spot', leverage: 1, haltReason: reason }], {
      'POST /api/resumecycle': (call) =>
        (call.body as { missingLots?: string }).missingLots === 'rebuy'
          ? json({ message: refusal }, 400)
          : json({ success: true, message: cycleMessages.resumed }),
    });
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await user.click(
      within(await card('ETH/USDT cycle')).getByRole('button', { name: 'Resume ETH/USDT cycle' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Resume trading' });
    expect(api.callsTo('POST', '/api/resumecycle')).toHaveLength(0);
    await user.click(within(dialog).getByRole('radio', { name: /Re-buy the missing quantity/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm and resume' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: /Drop the missing lots/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm and resume' }));
    expect(await screen.findByText(cycleMessages.resumed)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Resume trading' })).toBeNull());
    expect(api.callsTo('POST', '/api/resumecycle').map((c) => c.body)).toEqual([
      { cycle_id: 'c2', missingLots: 'rebuy' },
      { cycle_id: 'c2', missingLots: 'drop' },
    ]);
  });

  it('edits a cycle: checks the stop loss against the buy price, then saves', async () => {
    const api = cyclesApi([cycle()]);
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await user.click(
      within(await card('BTC/USDT cycle')).getByRole('button', { name: 'Edit BTC/USDT cycle' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Cycle' });
    const input = (label: string) => within(dialog).getByLabelText(label);
    expect(input('Buy Price')).toHaveValue('1900');
    expect(input('Sell Price')).toHaveValue('2100');
    expect(input('Stop Loss')).toHaveValue('1600');
    expect(input('Number of Cycles')).toHaveValue('5');

    await user.clear(input('Stop Loss'));
    await user.type(input('Stop Loss'), '1950');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText(cycleMessages.stopLossAboveBuy)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/editcycle')).toHaveLength(0);

    await user.clear(input('Stop Loss'));
    await user.clear(input('Number of Cycles'));
    await user.type(input('Number of Cycles'), '8');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(cycleMessages.updated)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/editcycle')[0]?.body).toEqual({
      cycle_id: 'c1',
      buy_price: 1900,
      sell_price: 2100,
      stop_loss: null,
      no_of_cycle: 8,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it.each([
    [404, { message: cycleMessages.cycleNotFound }, cycleMessages.updateFailed, cycleMessages.cycleNotFound],
    [500, {}, cycleMessages.updateError, null],
  ])('says the spec failure when the edit answers %i', async (status, body, shown, reason) => {
    cyclesApi([cycle()], { 'POST /api/editcycle': () => json(body, status) });
    const { user } = renderFeature('/cycle', <CycleRoute />, { signedIn: true });
    await user.click(
      within(await card('BTC/USDT cycle')).getByRole('button', { name: 'Edit BTC/USDT cycle' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Cycle' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(shown)).toBeInTheDocument();
    if (reason) expect(screen.getByText(reason)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Cycle' })).toBeInTheDocument();
  });
});

import type { TopBot } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import LivebotsRoute from '../../../app/routes/livebots';
import { json, mockApi } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';

vi.mock('../../market/components/candle-chart', () => ({ CandleChart: () => null }));

const top: TopBot[] = [
  {
    copyToken: 'v1.opaque.one',
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
    sparklineData: [1, 2],
  },
  {
    copyToken: 'v1.opaque.two',
    name: 'BTCUSDT',
    category: 'Spot',
    botType: 'multigrid',
    shape: 'Multigrid 5',
    strategy: {},
    leverage: 1,
    runtime: 1,
    roi: 1.1,
    apy: 401,
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
});

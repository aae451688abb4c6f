import { botMessages, startReadinessMessages, takeProfitFeeWarning, walletMessages } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import StartBotRoute from '../../../app/routes/start-bot';
import { json, mockApi } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';

// jsdom has no canvas: the Market Overview's candle chart is drawn only in a real browser (e2e).
vi.mock('../../market/components/candle-chart', () => ({ CandleChart: () => null }));

function strategy(name: string, grids: number, system = false) {
  return { _id: name, strategy_name: name, No_of_order: grids, status: 'active', system };
}

const grids: Record<string, number> = { Small: 5, Wide: 12, 'Scalp Fast': 4 };

function startApi(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /api/minimum-bot-amount': () => json({ minimumBotAmount: 100 }),
    'GET /api/symbolpair': () => json({ pairs: ['BTCUSDT', 'ETHUSDT'] }),
    'GET /api/mystratagies': () => json({ strategies: [strategy('Small', 5), strategy('Wide', 12)] }),
    'GET /api/systemstrategy': () => json({ strategies: [strategy('Default', 3, true)] }),
    'GET /api/mystratagiesscalping': () => json({ strategies: [strategy('Scalp Fast', 4)] }),
    'GET /api/systemstrategyscalping': () => json({ strategies: [] }),
    'POST /api/noofgrid': (call) => {
      const name = (call.body as { strategyName: string }).strategyName;
      return json({ noOfGrid: grids[name] ?? 3 });
    },
    'POST /api/liveprice': () => json({ pair: 'BTCUSDT', price: '97123.45' }),
    'POST /api/futureliveprice': () => json({ pair: 'BTCUSDT', price: '97100.5' }),
    'POST /api/startbotdata': () => json({ message: botMessages.startCreated, botId: 'b1' }),
    'POST /api/startscalp': () => json({ message: botMessages.startCreated, botId: 'b2' }),
    'GET /api/startcheck': () => json({ venue: 'paper', freeUsdt: '10000', blockers: [], feeWarning: null }),
    ...overrides,
  });
}

async function fillBasics(user: ReturnType<typeof renderStartBot>['user'], strategyName = 'Small') {
  await user.selectOptions(await screen.findByLabelText('Bot type'), 'Multigrid');
  await user.selectOptions(screen.getByLabelText('Category'), 'Spot');
  await screen.findByRole('option', { name: 'BTC/USDT' });
  await user.selectOptions(screen.getByLabelText('Pair'), 'BTCUSDT');
  await screen.findByRole('option', { name: strategyName });
  await user.selectOptions(screen.getByLabelText('Strategy'), strategyName);
}

function renderStartBot(path = '/startbot') {
  return renderFeature(path, <StartBotRoute />, { signedIn: true });
}

const startButton = () => screen.getByRole('button', { name: 'Start' });
const riskBox = () => screen.getByRole('checkbox');

describe('Start New Bot form', () => {
  it('keeps Start disabled until the risk disclaimer is ticked, then shows every required message', async () => {
    startApi();
    const { user } = renderStartBot();
    await screen.findByRole('heading', { name: 'Start New Bot' });
    expect(startButton()).toBeDisabled();
    await user.click(riskBox());
    expect(startButton()).toBeEnabled();
    await user.click(startButton());
    expect(await screen.findByText(botMessages.botTypeRequired)).toBeInTheDocument();
    expect(screen.getByText(botMessages.categoryRequired)).toBeInTheDocument();
    expect(screen.getByText(botMessages.pairRequired)).toBeInTheDocument();
    expect(screen.getByText(botMessages.strategyRequired)).toBeInTheDocument();
    expect(screen.getByText(botMessages.amountRequired)).toBeInTheDocument();
  });

  it('shows the server minimum and enforces it', async () => {
    startApi({ 'GET /api/minimum-bot-amount': () => json({ minimumBotAmount: 1000 }) });
    const { user } = renderStartBot();
    await fillBasics(user);
    await waitFor(() =>
      expect(screen.getByTestId('amount-minimums')).toHaveTextContent('Minimum bot amount: $1000'),
    );
    await user.type(screen.getByLabelText('Amount (USDT)'), '500');
    await user.click(riskBox());
    await user.click(startButton());
    expect(await screen.findByText(botMessages.amountMin(1000))).toBeInTheDocument();
    await user.type(screen.getByLabelText('Amount (USDT)'), 'x');
    expect(await screen.findByText(botMessages.amountNumber)).toBeInTheDocument();
  });

  it('applies the minimum by grid count: $100 under 10 grids, else $10 per grid', async () => {
    const api = startApi();
    const { user } = renderStartBot();
    await fillBasics(user, 'Wide');
    await waitFor(() =>
      expect(screen.getByTestId('amount-minimums')).toHaveTextContent('Minimum for 12 grids: $120'),
    );
    await user.type(screen.getByLabelText('Amount (USDT)'), '110');
    await user.click(riskBox());
    await user.click(startButton());
    expect(await screen.findByText(botMessages.insufficientForGrids(12, 120))).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/startbotdata')).toHaveLength(0);

    await user.selectOptions(screen.getByLabelText('Strategy'), 'Small');
    await waitFor(() =>
      expect(screen.getByTestId('amount-minimums')).toHaveTextContent('Minimum for 5 grids: $100'),
    );
    await user.click(startButton());
    await waitFor(() => expect(api.callsTo('POST', '/api/startbotdata')).toHaveLength(1));
  });

  it('asks for leverage only on Future, within 1x to 10x', async () => {
    startApi();
    const { user } = renderStartBot();
    await fillBasics(user);
    expect(screen.queryByLabelText('Leverage (x)')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Category'), 'Future');
    const leverage = screen.getByLabelText('Leverage (x)');
    await user.type(screen.getByLabelText('Amount (USDT)'), '200');
    await user.clear(leverage);
    await user.type(leverage, '11');
    await user.click(riskBox());
    await user.click(startButton());
    expect(await screen.findByText(botMessages.leverageMax)).toBeInTheDocument();
    await user.clear(leverage);
    expect(await screen.findByText(botMessages.leverageRequired)).toBeInTheDocument();
    await user.type(leverage, '0');
    expect(await screen.findByText(botMessages.leverageMin)).toBeInTheDocument();
    await user.clear(leverage);
    await user.type(leverage, '2.5');
    expect(await screen.findByText('Leverage must be a whole number (1x to 10x).')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Category'), 'Spot');
    expect(screen.queryByLabelText('Leverage (x)')).not.toBeInTheDocument();
  });

  it('checks the profit book range and the price fields', async () => {
    startApi();
    const { user } = renderStartBot();
    await fillBasics(user);
    await user.type(screen.getByLabelText('Amount (USDT)'), '200');
    await user.type(screen.getByLabelText('Profit book & stop at (%)'), '1001');
    await user.type(screen.getByLabelText('Sell All And Pause Price'), 'abc');
    await user.type(screen.getByLabelText('Restart Price'), 'x');
    await user.type(screen.getByLabelText('Stoploss Price'), '-');
    await user.click(riskBox());
    await user.click(startButton());
    expect(await screen.findByText(botMessages.profitBookRange)).toBeInTheDocument();
    expect(screen.getByText(botMessages.sellPauseNumber)).toBeInTheDocument();
    expect(screen.getByText(botMessages.restartNumber)).toBeInTheDocument();
    expect(screen.getByText(botMessages.stoplossNumber)).toBeInTheDocument();
  });

  it('refuses price limits on the wrong side of the live price, and a restart above the pause price', async () => {
    const api = startApi();
    const { user } = renderStartBot();
    await fillBasics(user);
    expect(await screen.findByTestId('live-price')).toHaveTextContent('97,123.45');
    await user.type(screen.getByLabelText('Amount (USDT)'), '200');
    await user.type(screen.getByLabelText('Sell All And Pause Price'), '1');
    await user.type(screen.getByLabelText('Stoploss Price'), '999999');
    await user.click(riskBox());
    await user.click(startButton());
    expect(await screen.findByText(botMessages.pauseAboveLive)).toBeInTheDocument();
    expect(screen.getByText(botMessages.stoplossBelowLive)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/startbotdata')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Sell All And Pause Price'));
    await user.type(screen.getByLabelText('Sell All And Pause Price'), '100000');
    await user.type(screen.getByLabelText('Restart Price'), '100000');
    await user.clear(screen.getByLabelText('Stoploss Price'));
    await user.type(screen.getByLabelText('Stoploss Price'), '90000');
    await user.click(startButton());
    expect(await screen.findByText(botMessages.restartBelowPause)).toBeInTheDocument();
    expect(screen.queryByText(botMessages.pauseAboveLive)).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/api/startbotdata')).toHaveLength(0);
  });

  it('starts a bot, says Bot Starting... and goes to the dashboard', async () => {
    const api = startApi();
    const { user } = renderStartBot();
    await fillBasics(user);
    expect(await screen.findByTestId('live-price')).toHaveTextContent('97,123.45');
    await user.type(screen.getByLabelText('Amount (USDT)'), '250');
    await user.type(screen.getByLabelText('Profit book & stop at (%)'), '20');
    await user.click(riskBox());
    await user.click(startButton());
    expect(await screen.findByText(botMessages.botStarting)).toBeInTheDocument();
    await waitFor(() => expect(currentUrl()).toBe('/dashboard'));
    expect(api.callsTo('POST', '/api/startbotdata')[0]?.body).toEqual({
      botType: 'Multigrid',
      category: 'Spot',
      selectPair: 'BTCUSDT',
      myStrategy: 'Small',
      amount: 250,
      profitbookat: 20,
    });
  });

  it.each([
    [500, { message: 'boom' }, botMessages.invalidKeys],
    [
      400,
      { message: 'Insufficient available balance: 12.5 USDT' },
      'Insufficient available balance: 12.5 USDT',
    ],
    [400, { message: botMessages.alreadyRunning('BTCUSDT') }, botMessages.alreadyRunning('BTCUSDT')],
    [409, {}, botMessages.startError],
  ])('shows the spec message for a %i answer', async (status, body, shown) => {
    startApi({ 'POST /api/startbotdata': () => json(body, status) });
    const { user } = renderStartBot();
    await fillBasics(user);
    await user.type(screen.getByLabelText('Amount (USDT)'), '250');
    await user.click(riskBox());
    await user.click(startButton());
    expect(await screen.findByText(shown)).toBeInTheDocument();
    expect(currentUrl()).toBe('/startbot');
  });

  it("offers Advanced Multigrid and shows Scalping Grid disabled as 'coming soon...' when the type is picked freely", async () => {
    startApi();
    const { user } = renderStartBot();
    const type = await screen.findByLabelText('Bot type');
    expect(type).toBeEnabled();
    expect(screen.getByRole('option', { name: 'Advanced Multigrid' })).toBeEnabled();
    expect(screen.getByRole('option', { name: 'Scalping Grid (coming soon...)' })).toBeDisabled();
    // Where a Scalping bot starts instead: a Scalping strategy on My Strategies.
    expect(screen.getByRole('link', { name: 'My Strategies, Scalping' })).toHaveAttribute(
      'href',
      '/mystrategies?tab=scalping',
    );
    await user.selectOptions(type, 'Multigrid');
    expect(await screen.findByRole('option', { name: 'Small' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Scalp Fast' })).not.toBeInTheDocument();
  });

  it('shows the type fixed when a Scalping strategy opened it, with the way back to a free choice', async () => {
    startApi();
    const { user } = renderStartBot('/startbot?strategy=Scalp%20Fast&botType=Scalping');
    await screen.findByRole('option', { name: 'Scalp Fast' });
    const type = screen.getByLabelText('Bot type');
    expect(type).toBeDisabled();
    expect(type).toHaveValue('Scalping');
    expect(screen.getByRole('option', { name: 'Scalping Grid' })).toBeInTheDocument();
    expect(screen.getByLabelText('Strategy')).toHaveValue('Scalp Fast');
    expect(screen.getByTestId('bot-type-fixed')).toHaveTextContent('Set by the Scalping strategy you chose.');

    await user.click(screen.getByRole('link', { name: 'Start a Multigrid bot instead' }));
    await waitFor(() => expect(currentUrl()).toBe('/startbot'));
    expect(screen.getByLabelText('Bot type')).toBeEnabled();
    expect(screen.getByLabelText('Bot type')).toHaveValue('');
    expect(screen.getByLabelText('Strategy')).toHaveValue('');
  });

  it('is prefilled from the query and starts a Scalping futures bot on /api/startscalp', async () => {
    const api = startApi();
    const { user } = renderStartBot(
      '/startbot?pair=BTCUSDT&category=Future&strategy=Scalp%20Fast&botType=Scalping',
    );
    await screen.findByRole('option', { name: 'Scalp Fast' });
    expect(screen.getByLabelText('Bot type')).toHaveValue('Scalping');
    expect(screen.getByLabelText('Category')).toHaveValue('Future');
    expect(screen.getByLabelText('Strategy')).toHaveValue('Scalp Fast');
    await user.type(screen.getByLabelText('Amount (USDT)'), '300');
    await user.clear(screen.getByLabelText('Leverage (x)'));
    await user.type(screen.getByLabelText('Leverage (x)'), '3');
    await user.click(riskBox());
    await user.click(startButton());
    await waitFor(() => expect(api.callsTo('POST', '/api/startscalp')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/startscalp')[0]?.body).toMatchObject({
      botType: 'Scalping',
      category: 'Future',
      leverage: 3,
      amount: 300,
    });
  });
});

describe('Start New Bot: what blocks a start, up front', () => {
  it('shows the blockers before anything is filled in, with the page that removes each', async () => {
    startApi({
      'GET /api/startcheck': (call) =>
        json({
          venue: 'binance',
          freeUsdt: call.query.category === 'Future' ? '0' : null,
          blockers:
            call.query.category === 'Future'
              ? [
                  {
                    code: 'futures_empty',
                    message: startReadinessMessages.futuresEmpty,
                    link: { to: '/mywallet', label: 'Transfer' },
                  },
                ]
              : [
                  {
                    code: 'keys',
                    message: startReadinessMessages.keys,
                    link: { to: '/api-setting', label: 'Go to API Setting' },
                  },
                ],
          feeWarning: null,
        }),
    });
    const { user } = renderStartBot();
    const alert = await screen.findByTestId('start-blockers');
    expect(alert).toHaveTextContent(startReadinessMessages.keys);
    expect(screen.getByRole('link', { name: 'Go to API Setting' })).toHaveAttribute('href', '/api-setting');
    await user.selectOptions(screen.getByLabelText('Category'), 'Future');
    await waitFor(() =>
      expect(screen.getByTestId('start-blockers')).toHaveTextContent(startReadinessMessages.futuresEmpty),
    );
  });

  it("opens the transfer dialog from an empty futures wallet's Transfer and returns to the filled form", async () => {
    let futures = '0';
    const api = startApi({
      'GET /api/startcheck': (call) =>
        json({
          venue: 'paper',
          freeUsdt: call.query.category === 'Future' ? futures : '1000.5',
          blockers:
            call.query.category === 'Future' && futures === '0'
              ? [
                  {
                    code: 'futures_empty',
                    message: startReadinessMessages.futuresEmpty,
                    link: { to: '/mywallet', label: 'Transfer' },
                  },
                ]
              : [],
          feeWarning: null,
        }),
      'GET /api/spotBalance': () => json({ spotusdtAmount: '1000.5' }),
      'GET /api/futuresBalance': () => json({ futuresusdtAmount: futures }),
      'GET /api/pichart': () => json({ usdt: '1000.5', availableBalance: '1000.5', chartData: [] }),
      'GET /api/committedfunds': () => json({ spotUsdt: '0', futuresUsdt: '0', coins: {}, bots: [] }),
      'GET /api/positions': () => json({ positions: [], connected: true }),
      'POST /api/transferspottofutures': (call) => {
        futures = (call.body as { amount: string }).amount;
        return json({ success: true, message: walletMessages.transferSuccessful });
      },
    });
    const { user } = renderStartBot();
    await fillBasics(user);
    await user.selectOptions(screen.getByLabelText('Category'), 'Future');
    await user.type(screen.getByLabelText('Amount (USDT)'), '300');
    await waitFor(() =>
      expect(screen.getByTestId('start-blockers')).toHaveTextContent(startReadinessMessages.futuresEmpty),
    );
    // Transfer opens the dialog on this page: nothing navigates away from the form.
    await user.click(screen.getByRole('button', { name: 'Transfer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Internal Transfers' });
    expect(currentUrl()).toBe('/startbot');
    await waitFor(() => expect(within(dialog).getByTestId('transferable')).toHaveTextContent('1,000.50'));
    await user.type(within(dialog).getByLabelText('Amount'), '400');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/transferspottofutures')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Back on the form as it was left, and the start check asked again: the blocker is gone.
    expect(screen.getByLabelText('Category')).toHaveValue('Future');
    expect(screen.getByLabelText('Pair')).toHaveValue('BTCUSDT');
    expect(screen.getByLabelText('Strategy')).toHaveValue('Small');
    expect(screen.getByLabelText('Amount (USDT)')).toHaveValue('300');
    await waitFor(() => expect(screen.queryByTestId('start-blockers')).not.toBeInTheDocument());
  });

  it('refuses an amount above the free balance before submitting, and warns about fees', async () => {
    const warning = takeProfitFeeWarning([0.02], 'spot');
    const api = startApi({
      'GET /api/startcheck': (call) =>
        json({
          venue: 'paper',
          freeUsdt: '250.5',
          blockers: [],
          feeWarning: call.query.strategy ? warning : null,
        }),
    });
    const { user } = renderStartBot();
    await fillBasics(user);
    expect(await screen.findByTestId('fee-warning')).toHaveTextContent('0.2%');
    await waitFor(() => expect(screen.getByTestId('free-usdt')).toHaveTextContent('$250.50'));
    await user.type(screen.getByLabelText('Amount (USDT)'), '300');
    await user.click(riskBox());
    await user.click(startButton());
    expect(
      await screen.findByText(`${botMessages.insufficientBalance}: 250.50 USDT free in your spot wallet.`),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/startbotdata')).toHaveLength(0);
  });

  it('says the amount minimum in dollars', async () => {
    startApi();
    const { user } = renderStartBot();
    await fillBasics(user);
    await user.type(screen.getByLabelText('Amount (USDT)'), '50');
    await user.click(riskBox());
    await user.click(startButton());
    expect(await screen.findByText('Amount must be greater than or equal to $100.')).toBeInTheDocument();
  });
});

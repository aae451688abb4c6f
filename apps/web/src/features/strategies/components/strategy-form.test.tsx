import { strategyMessages as m } from '@gridbot/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import BotCreateRoute from '../../../app/routes/bot-create';
import CreateScalpingStrategyRoute from '../../../app/routes/create-scalping-strategy';
import { json, mockApi } from '../../../testing/mock-api';
import { currentUrl, renderFeature } from '../../../testing/render-feature';

const cell = (grid: number, column: string) => screen.getByLabelText(`Grid ${grid} ${column}`);
const ALLOTTED = 'Allotted Amount (%)';

async function openMultigrid(grids: string) {
  const view = renderFeature('/botcreate', <BotCreateRoute />, { signedIn: true });
  await screen.findByRole('heading', { name: 'Multigrid Strategy' });
  await view.user.type(screen.getByLabelText('Number of Grids'), grids);
  return view;
}

describe('Multigrid create form', { timeout: 20_000 }, () => {
  it('builds one row per grid with grid 1 fixed to market price', async () => {
    mockApi();
    await openMultigrid('3');
    expect(cell(3, ALLOTTED)).toBeInTheDocument();
    expect(screen.queryByLabelText(`Grid 4 ${ALLOTTED}`)).not.toBeInTheDocument();
    expect(cell(1, 'Buy (%) first condition')).toBeDisabled();
    expect(cell(1, 'Buy (%) first condition')).toHaveValue('marketprice');
    expect(cell(1, 'Buy (%) second condition')).toHaveValue('marketprice');
    expect(cell(2, 'Buy (%) first condition')).toBeEnabled();
  });

  it('Auto Fill puts 100 / grids, 1.2 and 0.2 in the cells; Clear empties them', async () => {
    mockApi();
    const { user } = await openMultigrid('3');
    await user.click(screen.getByRole('button', { name: 'Auto Fill' }));
    expect([1, 2, 3].map((g) => (cell(g, ALLOTTED) as HTMLInputElement).value)).toEqual([
      '33.33',
      '33.33',
      '33.34',
    ]);
    expect(cell(2, 'Buy (%) first condition')).toHaveValue('1.2');
    expect(cell(2, 'Buy (%) second condition')).toHaveValue('0.2');
    expect(cell(3, 'Take Profit (%) first condition')).toHaveValue('1.2');
    expect(cell(1, 'Take Profit (%) second condition')).toHaveValue('0.2');
    expect(screen.getByTestId('allotment-total')).toHaveTextContent('100% / 100%');

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    for (const g of [1, 2, 3]) expect(cell(g, ALLOTTED)).toHaveValue('');
    expect(cell(2, 'Buy (%) first condition')).toHaveValue('');
    expect(cell(1, 'Buy (%) first condition')).toHaveValue('marketprice');
  });

  it('shows the 100 % message with the current total and saves nothing', async () => {
    const api = mockApi();
    const { user } = await openMultigrid('2');
    await user.type(screen.getByLabelText('Strategy Name'), 'Half');
    await user.click(screen.getByRole('button', { name: 'Auto Fill' }));
    await user.clear(cell(2, ALLOTTED));
    await user.type(cell(2, ALLOTTED), '40');
    await user.click(screen.getByRole('button', { name: 'Save Strategy' }));
    expect(await screen.findByText(m.totalAllotted('90'))).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/strategy')).toHaveLength(0);
  });

  it('shows the grid count message for a count outside 1 to 50', async () => {
    mockApi();
    await openMultigrid('51');
    expect(await screen.findByText(m.gridsMultigrid)).toBeInTheDocument();
  });

  it('marks an empty cell and names it under the table', async () => {
    mockApi();
    const { user } = await openMultigrid('2');
    await user.type(screen.getByLabelText('Strategy Name'), 'Gaps');
    await user.click(screen.getByRole('button', { name: 'Auto Fill' }));
    await user.clear(cell(2, 'Take Profit (%) first condition'));
    await user.click(screen.getByRole('button', { name: 'Save Strategy' }));
    // The backtest panel beside the table may raise its own alert (no price history in this test), so the
    // table's alert is the one that names the cell.
    const message = await screen.findByText(m.takeProfitRequired(2));
    expect(message.closest('[role="alert"]')).not.toBeNull();
    expect(cell(2, 'Take Profit (%) first condition')).toHaveAttribute('aria-invalid', 'true');
  });

  it('saves the spec payload and goes to My Strategies', async () => {
    const api = mockApi({
      'POST /api/strategy': () => json({ success: true, message: m.saved, strategy: {} }),
      'GET /api/mystratagieslist': () => json({ strategies: [] }),
      'GET /api/systemstrategy': () => json({ strategies: [] }),
    });
    const { user } = await openMultigrid('2');
    await user.type(screen.getByLabelText('Strategy Name'), 'Two Step');
    await user.click(screen.getByRole('button', { name: 'Auto Fill' }));
    await user.click(screen.getByRole('button', { name: 'Save Strategy' }));
    expect(await screen.findByText(m.saved)).toBeInTheDocument();
    await waitFor(() => expect(currentUrl()).toBe('/mystrategies'));
    expect(api.callsTo('POST', '/api/strategy')[0]?.body).toEqual({
      strategyName: 'Two Step',
      noOfGrids: '2',
      tableData: [
        {
          gridNo: 1,
          allottedAmountPercentagePerOrder: '50',
          buyPercentage: 'marketprice',
          buyPercentageUp: 'marketprice',
          takeProfitPercentage: '1.2',
          takeProfitPercentageDown: '0.2',
        },
        {
          gridNo: 2,
          allottedAmountPercentagePerOrder: '50',
          buyPercentage: '1.2',
          buyPercentageUp: '0.2',
          takeProfitPercentage: '1.2',
          takeProfitPercentageDown: '0.2',
        },
      ],
    });
  });

  it('turns the server duplicate-name message into the spec text', async () => {
    mockApi({ 'POST /api/strategy': () => json({ message: m.duplicateName }, 409) });
    const { user } = await openMultigrid('1');
    await user.type(screen.getByLabelText('Strategy Name'), 'Taken');
    await user.click(screen.getByRole('button', { name: 'Auto Fill' }));
    await user.click(screen.getByRole('button', { name: 'Save Strategy' }));
    expect(await screen.findAllByText(m.duplicateNameHint)).not.toHaveLength(0);
    expect(currentUrl()).toBe('/botcreate');
  });

  it('updates the ladder preview as the user types', async () => {
    mockApi();
    const { user } = await openMultigrid('3');
    await user.click(screen.getByRole('button', { name: 'Auto Fill' }));
    const chart = screen.getByRole('img', { name: /Ladder preview/ });
    expect(chart).toHaveAccessibleName(expect.stringContaining('down to 97.61'));
    await user.clear(cell(3, 'Buy (%) first condition'));
    await user.type(cell(3, 'Buy (%) first condition'), '10');
    expect(screen.getByRole('img', { name: /Ladder preview/ })).toHaveAccessibleName(
      expect.stringContaining('down to 88.92'),
    );
  });
});

describe('Scalping create form', { timeout: 20_000 }, () => {
  it('has one take-profit defaulting to 3 and refuses more than 10 grids', async () => {
    mockApi();
    const { user } = renderFeature('/createscalpingstrategy', <CreateScalpingStrategyRoute />, {
      signedIn: true,
    });
    await screen.findByRole('heading', { name: 'Create Scalping Strategy' });
    expect(screen.getByLabelText('Take Profit (%)')).toHaveValue('3');
    await user.type(screen.getByLabelText('Number of Grids'), '11');
    expect(await screen.findByText(m.gridsScalping)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Number of Grids'));
    await user.type(screen.getByLabelText('Number of Grids'), '4');
    await user.click(screen.getByRole('button', { name: 'Auto Fill' }));
    expect(cell(4, ALLOTTED)).toHaveValue('25');
    expect(cell(1, 'Buy Condition (%)')).toHaveValue('marketprice');
    expect(cell(2, 'Buy Condition (%)')).toHaveValue('1.2');
    expect(screen.queryByLabelText('Grid 2 Buy (%) second condition')).not.toBeInTheDocument();
  });
});

describe('strategy form slips', { timeout: 20_000 }, () => {
  it.each(['2.5', '100', '-3', '1e5', 'ab'])(
    'keeps a grid count of %j as typed and refuses it with the message',
    async (typed) => {
      mockApi();
      await openMultigrid(typed);
      const count = screen.getByLabelText('Number of Grids');
      expect(count).toHaveValue(typed);
      expect(count).toHaveAccessibleDescription(m.gridsMultigrid);
    },
  );

  it('warns when a take-profit is below the round-trip fee, showing the fee', async () => {
    mockApi();
    const { user } = await openMultigrid('2');
    await user.click(screen.getByRole('button', { name: 'Auto Fill' }));
    expect(screen.queryByTestId('fee-warning')).not.toBeInTheDocument();
    await user.clear(cell(2, 'Take Profit (%) first condition'));
    await user.type(cell(2, 'Take Profit (%) first condition'), '0.02');
    const warning = await screen.findByTestId('fee-warning');
    expect(warning).toHaveTextContent('Take-profit of grid 2 is below the round-trip fee of 0.2% on spot');
    expect(warning).toHaveTextContent('0.1% on futures');
  });
});

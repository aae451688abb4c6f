import { strategyMessages as m, type StoredStrategy } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import EditStrategyRoute from '../../../app/routes/edit-strategy';
import MyStrategiesRoute from '../../../app/routes/my-strategies';
import ScalpEditStrategyRoute from '../../../app/routes/scalp-edit-strategy';
import { json, mockApi } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';

const stored = (name: string, over: Partial<StoredStrategy> = {}): StoredStrategy =>
  ({
    _id: `id-${name}`,
    type: 'multigrid',
    strategy_name: name,
    No_of_order: 2,
    status: 'active',
    system: false,
    allotted_amount_percentage_per_order: [0.5, 0.5],
    buy_percentage: [10],
    buy_percentage_up: [0.2],
    takeprofit_percentage: [1.2, 1.2],
    takeprofit_percentage_down: [0.2, 0.2],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  }) as StoredStrategy;

const noSystem = { 'GET /api/systemstrategy': () => json({ strategies: [] }) };

describe('My Strategies', { timeout: 20_000 }, () => {
  it('shows the empty state of the spec', async () => {
    mockApi({ 'GET /api/mystratagieslist': () => json({ strategies: [] }), ...noSystem });
    renderFeature('/mystrategies', <MyStrategiesRoute />, { signedIn: true });
    expect(await screen.findByText(m.emptyTitle)).toBeInTheDocument();
    expect(screen.getByText(m.emptyLine)).toBeInTheDocument();
  });

  it('shows the load error of the spec', async () => {
    mockApi({ 'GET /api/mystratagieslist': () => json({ message: 'boom' }, 500), ...noSystem });
    renderFeature('/mystrategies', <MyStrategiesRoute />, { signedIn: true });
    expect(await screen.findByText(m.listFailed)).toBeInTheDocument();
  });

  it('cuts names at 12 characters and links Edit to the edit page', async () => {
    mockApi({
      'GET /api/mystratagieslist': () => json({ strategies: [stored('A very long strategy name')] }),
      ...noSystem,
    });
    renderFeature('/mystrategies', <MyStrategiesRoute />, { signedIn: true });
    expect(await screen.findByText('A very long ...')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit A very long strategy name' })).toHaveAttribute(
      'href',
      '/editstrategy/A%20very%20long%20strategy%20name',
    );
  });

  it('shows the in-use message as is and deletes after confirmation', async () => {
    let inUse = true;
    const api = mockApi({
      'GET /api/mystratagieslist': () => json({ strategies: inUse ? [stored('Busy')] : [] }),
      'POST /api/deletestrategy': () =>
        inUse ? json({ message: m.inUse }, 409) : json({ success: true, message: m.deleted }),
      ...noSystem,
    });
    const { user } = renderFeature('/mystrategies', <MyStrategiesRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Delete Busy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete strategy?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(m.inUse)).toBeInTheDocument();
    // The dialog closes with the answer; the list behind is usable again once it has gone.
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    inUse = false;
    await user.click(screen.getByRole('button', { name: 'Delete Busy' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(m.deleted)).toBeInTheDocument();
    expect(await screen.findByText(m.emptyTitle)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/deletestrategy')[1]?.body).toEqual({ strategy_name: 'Busy' });
  });

  it('prefixes any other delete failure', async () => {
    mockApi({
      'GET /api/mystratagieslist': () => json({ strategies: [stored('Odd')] }),
      'POST /api/deletestrategy': () => json({ message: 'Strategy not found' }, 404),
      ...noSystem,
    });
    const { user } = renderFeature('/mystrategies', <MyStrategiesRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Delete Odd' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(m.deleteFailed('Strategy not found'))).toBeInTheDocument();
  });

  it('opens the Scalping tab from the query and lists system strategies with Copy', async () => {
    const api = mockApi({
      'GET /api/scalpmystratagieslist': () => json({ strategies: [] }),
      'GET /api/systemstrategyscalping': () =>
        json({
          strategies: [
            stored('Scalp Classic 5', {
              type: 'scalping',
              system: true,
              takeprofit_percentage: 1.5,
            } as never),
          ],
        }),
      'POST /api/copystrategy': () =>
        json({ success: true, message: m.copied, strategy: stored('Scalp Classic 5 (copy)') }),
    });
    const { user } = renderFeature('/mystrategies?tab=scalping', <MyStrategiesRoute />, { signedIn: true });
    expect(await screen.findByRole('tab', { name: 'Scalping' })).toHaveAttribute('aria-selected', 'true');
    await user.click(await screen.findByRole('button', { name: 'Copy Scalp Classic 5' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/api/copystrategy')[0]?.body).toEqual({
        kind: 'scalping',
        strategy_name: 'Scalp Classic 5',
      }),
    );
    expect(await screen.findByText(`${m.copied} (Scalp Classic 5 (copy))`)).toBeInTheDocument();
  });

  it('starts a bot from a strategy card: Start BOT opens with the strategy and its type', async () => {
    mockApi({
      'GET /api/scalpmystratagieslist': () =>
        json({ strategies: [stored('Scalp Own', { type: 'scalping', takeprofit_percentage: 2 } as never)] }),
      'GET /api/systemstrategyscalping': () =>
        json({
          strategies: [
            stored('Scalp Classic 5', {
              type: 'scalping',
              system: true,
              takeprofit_percentage: 1.5,
            } as never),
          ],
        }),
      'GET /api/mystratagieslist': () => json({ strategies: [stored('Grid Own')] }),
      ...noSystem,
    });
    const { user } = renderFeature('/mystrategies?tab=scalping', <MyStrategiesRoute />, { signedIn: true });
    expect(await screen.findByRole('link', { name: 'Start a bot with Scalp Own' })).toHaveAttribute(
      'href',
      '/startbot?strategy=Scalp+Own&botType=Scalping',
    );
    expect(await screen.findByRole('link', { name: 'Start a bot with Scalp Classic 5' })).toHaveAttribute(
      'href',
      '/startbot?strategy=Scalp+Classic+5&botType=Scalping',
    );
    await user.click(screen.getByRole('tab', { name: 'Multigrid' }));
    expect(await screen.findByRole('link', { name: 'Start a bot with Grid Own' })).toHaveAttribute(
      'href',
      '/startbot?strategy=Grid+Own&botType=Multigrid',
    );
  });
});

describe('Edit strategy', { timeout: 20_000 }, () => {
  it('loads the strategy, keeps name and grid count read-only and notes a running bot', async () => {
    mockApi({
      'POST /api/stratagybypara': () => json({ strategy: stored('Runner'), inUse: true }),
    });
    renderFeature('/editstrategy/Runner', <EditStrategyRoute />, {
      route: '/editstrategy/:strategy_name',
      signedIn: true,
    });
    expect(await screen.findByRole('heading', { name: 'Edit Grid Bot Strategy' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Strategy Name')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Number of Grids')).toHaveValue('2');
    expect(screen.getByLabelText('Grid 2 Allotted Amount (%)')).toHaveValue('50');
    expect(screen.getByLabelText('Grid 1 Buy (%) second condition')).toBeDisabled();
    expect(screen.getByText(m.inUseEditNote)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeInTheDocument();
  });

  it('says when the strategy cannot be loaded', async () => {
    mockApi({ 'POST /api/scalpstratagybypara': () => json({ message: 'Strategy not found' }, 404) });
    renderFeature('/scalpeditstrategy/Gone', <ScalpEditStrategyRoute />, {
      route: '/scalpeditstrategy/:strategy_name',
      signedIn: true,
    });
    expect((await screen.findAllByText(m.loadFailed)).length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Start a bot with it' })).not.toBeInTheDocument();
  });

  it('starts a bot with the saved Scalping strategy from its editor', async () => {
    mockApi({
      'POST /api/scalpstratagybypara': () =>
        json({
          strategy: stored('Scalp Own', { type: 'scalping', takeprofit_percentage: 2 } as never),
          inUse: false,
        }),
    });
    renderFeature('/scalpeditstrategy/Scalp%20Own', <ScalpEditStrategyRoute />, {
      route: '/scalpeditstrategy/:strategy_name',
      signedIn: true,
    });
    expect(await screen.findByRole('link', { name: 'Start a bot with it' })).toHaveAttribute(
      'href',
      '/startbot?strategy=Scalp+Own&botType=Scalping',
    );
  });
});

import { platformMessages as m, type SubscriptionPlan, type SubscriptionRecord } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import SubscriptionRoute from '../../../app/routes/subscription';
import { renderFeature } from '../../../testing/render-feature';
import { fail, ok, page, platformApi, platformUser } from '../testing/platform-api';

const basic: SubscriptionPlan = {
  id: 'p1',
  name: 'Basic',
  usdtToken: '100',
  ifcToken: '0',
  ifxToken: '0',
  availableCredit: '500',
  active: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const pro: SubscriptionPlan = { ...basic, id: 'p2', name: 'Pro', usdtToken: '200', ifcToken: '50' };

const record: SubscriptionRecord = {
  id: 's1',
  planId: 'p1',
  planName: 'Basic',
  usdtToken: '100',
  ifcToken: '0',
  ifxToken: '0',
  availableCredit: '500',
  status: 'Active',
  createdAt: '2025-03-05T14:02:00.000Z',
};

function card(label: string) {
  return screen.getByRole('group', { name: label });
}

describe('Subscription', () => {
  it('shows the profit limit, the status, the three wallets and the plans with their price', async () => {
    platformApi(undefined, {
      'POST /platform/subscription/plans': () =>
        ok({ plans: [basic, pro, { ...pro, id: 'p3', name: 'Old', active: false }] }),
      'POST /platform/subscription/list': () =>
        ok(page([record, { ...record, id: 's0', status: 'In-Active' }])),
    });
    renderFeature('/subscription', <SubscriptionRoute />, { signedIn: true });
    await waitFor(() => expect(card('Profit Limit Remained')).toHaveTextContent('$300.00'));
    expect(card('Subscription Status')).toHaveTextContent('Active');
    expect(card('Subscription Status')).toHaveTextContent('You bought a plan and have profit limit left.');
    expect(card('USDT Wallet')).toHaveTextContent('150.00');
    expect(card('IFC Wallet')).toHaveTextContent('20.00');
    expect(card('IFX Wallet')).toHaveTextContent('0.00');
    expect(screen.getByRole('link', { name: 'Deposit' })).toHaveAttribute('href', '/Wallet-deposit');

    expect(await screen.findByRole('button', { name: 'Subscribe to Pro' })).toBeInTheDocument();
    expect(screen.getByText('200.00 USDT + 50.00 IFC')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subscribe to Old' })).not.toBeInTheDocument();

    const history = screen.getByRole('table', { name: 'Subscription History' });
    await waitFor(() => expect(within(history).getByText('In-Active')).toBeInTheDocument());
    expect(
      within(history)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['No', 'Plan', 'Profit Limit', 'Status', 'Date']);
  });

  it("explains a new member's free profit limit and In-Active status, and what happens at $0", async () => {
    platformApi({ ...platformUser, availableCredit: '100', isActiveSubscription: false });
    renderFeature('/subscription', <SubscriptionRoute />, { signedIn: true });
    await waitFor(() => expect(card('Profit Limit Remained')).toHaveTextContent('$100.00'));
    expect(card('Profit Limit Remained')).toHaveTextContent(
      'Each booked profit lowers it; at $0 no new bot or cycle starts and running bots open no new cycles until you subscribe again.',
    );
    expect(card('Subscription Status')).toHaveTextContent('In-Active');
    expect(card('Subscription Status')).toHaveTextContent(
      'No plan bought: your bots trade on the profit limit you have left (new accounts start with a free one).',
    );
    expect(screen.getByText('A plan adds its profit limit to what you have left.')).toBeInTheDocument();
  });

  it('says an In-Active status at $0 means the limit is used up', async () => {
    platformApi({ ...platformUser, availableCredit: '0', isActiveSubscription: false });
    renderFeature('/subscription', <SubscriptionRoute />, { signedIn: true });
    await waitFor(() =>
      expect(card('Subscription Status')).toHaveTextContent(
        'Your profit limit is used up: subscribe to a plan to start bots and cycles again.',
      ),
    );
  });

  it('shows Pending while the subscription status is unknown and In-Active when there is none', async () => {
    const { isActiveSubscription: _, ...unknown } = platformUser;
    platformApi(unknown);
    renderFeature('/subscription', <SubscriptionRoute />, { signedIn: true });
    await waitFor(() => expect(card('Subscription Status')).toHaveTextContent('Pending'));
  });

  it('subscribes after confirmation and reads the balances again', async () => {
    const api = platformApi(undefined, {
      'POST /platform/subscription/plans': () => ok({ plans: [basic] }),
      'POST /platform/subscription/create': () => ok({ id: 's9' }, 'Subscription activated.'),
    });
    const { user } = renderFeature('/subscription', <SubscriptionRoute />, { signedIn: true });
    await waitFor(() => expect(card('USDT Wallet')).toHaveTextContent('150.00'));
    await user.click(await screen.findByRole('button', { name: 'Subscribe to Basic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Subscription' });
    expect(within(dialog).getByText('100.00 USDT')).toBeInTheDocument();
    const mes = api.callsTo('GET', '/api/me').length;
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(m.subscribed)).toBeInTheDocument();
    expect(api.callsTo('POST', '/platform/subscription/create')[0]?.body).toEqual({ planId: 'p1' });
    await waitFor(() => expect(api.callsTo('GET', '/api/me').length).toBeGreaterThan(mes));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says which balance is short and does not offer to confirm', async () => {
    const api = platformApi(undefined, { 'POST /platform/subscription/plans': () => ok({ plans: [pro] }) });
    const { user } = renderFeature('/subscription', <SubscriptionRoute />, { signedIn: true });
    await waitFor(() => expect(card('USDT Wallet')).toHaveTextContent('150.00'));
    await user.click(await screen.findByRole('button', { name: 'Subscribe to Pro' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Subscription' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      m.insufficientBalance('USDT', '200.00', '150.00'),
    );
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      m.insufficientBalance('IFC', '50.00', '20.00'),
    );
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeDisabled();
    expect(api.callsTo('POST', '/platform/subscription/create')).toHaveLength(0);
  });

  it("toasts the server's msg when the code is not '0000'", async () => {
    platformApi(undefined, {
      'POST /platform/subscription/plans': () => ok({ plans: [basic] }),
      'POST /platform/subscription/create': () => fail('Insufficient USDT balance: someone spent it first.'),
    });
    const { user } = renderFeature('/subscription', <SubscriptionRoute />, { signedIn: true });
    await waitFor(() => expect(card('USDT Wallet')).toHaveTextContent('150.00'));
    await user.click(await screen.findByRole('button', { name: 'Subscribe to Basic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Subscription' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Insufficient USDT balance: someone spent it first.')).toBeInTheDocument();
  });

  it('offers a retry when the plans cannot be loaded', async () => {
    platformApi(undefined, {
      'POST /platform/subscription/plans': () => fail('Plans are down', '5000', 500),
    });
    renderFeature('/subscription', <SubscriptionRoute />, { signedIn: true });
    expect(await screen.findByText('Plans could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Plans are down')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

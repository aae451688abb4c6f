import { type AdminWithdrawRecord, platformMessages as m } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AdminRoute from '../../../app/routes/admin';
import { json, mockApi, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { renderFeature } from '../../../testing/render-feature';

const admin = { ...testUser, role: 'admin' as const };
const HASH = `0x${'ef'.repeat(32)}`;

const pending: AdminWithdrawRecord = {
  id: 'w1',
  amount: '25',
  fee: '1',
  toAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  status: 'PENDING',
  txHash: null,
  createdAt: '2025-03-05T14:02:00.000Z',
  userId: 'u2',
  username: 'bob',
  email: 'bob@example.com',
  rejectReason: null,
  decidedAt: null,
};

function page<T>(records: T[]) {
  return { records, current: 1, pages: 1, total: records.length };
}

// The first two tests look at the sidebar's menu too, so they render the whole app.
describe('Administration', () => {
  it('is not found for a member, and has no menu entry', async () => {
    mockApi();
    renderApp('/admin', { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('approves a pending withdrawal with the payout hash and rejects another', async () => {
    const api = mockApi({
      'GET /api/me': () => json({ user: admin }),
      'GET /api/admin/withdrawals': () => json(page([pending, { ...pending, id: 'w2', username: 'carol' }])),
      'POST /api/admin/withdrawals/w1/approve': () => json({ message: m.withdrawalApproved }),
      'POST /api/admin/withdrawals/w2/reject': () => json({ message: m.withdrawalRejected }),
    });
    const { user } = renderApp('/admin', { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Administration' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin'),
    );

    const table = await screen.findByRole('table', { name: 'Withdrawals' });
    await waitFor(() => expect(within(table).getByText('bob')).toBeInTheDocument());
    expect(api.callsTo('GET', '/api/admin/withdrawals')[0]).toBeDefined();

    await user.click(within(table).getAllByRole('button', { name: 'Approve' })[0] as HTMLElement);
    const approve = await screen.findByRole('dialog', { name: 'Approve withdrawal' });
    await user.type(within(approve).getByLabelText('Transaction hash'), '0x12');
    await user.click(within(approve).getByRole('button', { name: 'Mark as sent' }));
    expect(await within(approve).findByText(m.txHashRequired)).toBeInTheDocument();
    await user.clear(within(approve).getByLabelText('Transaction hash'));
    // Pasted, as a hash is: typed, its 66 characters would re-render the dialog 66 times.
    await user.paste(HASH);
    await user.click(within(approve).getByRole('button', { name: 'Mark as sent' }));
    expect(await screen.findByText(m.withdrawalApproved)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/admin/withdrawals/w1/approve')[0]?.body).toEqual({ txHash: HASH });

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(table).getAllByRole('button', { name: 'Reject' })[1] as HTMLElement);
    const reject = await screen.findByRole('dialog', { name: 'Reject withdrawal' });
    await user.type(within(reject).getByLabelText('Reason (optional)'), 'Wrong network');
    await user.click(within(reject).getByRole('button', { name: 'Reject and refund' }));
    expect(await screen.findByText(m.withdrawalRejected)).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/admin/withdrawals/w2/reject')[0]?.body).toEqual({
      reason: 'Wrong network',
    });
  });

  it('says when a pending withdrawal has a payout sent that is not confirmed yet', async () => {
    mockApi({
      'GET /api/me': () => json({ user: admin }),
      'GET /api/admin/withdrawals': () =>
        json(
          page([
            { ...pending, txHash: HASH },
            { ...pending, id: 'w2', username: 'carol' },
          ]),
        ),
    });
    renderFeature('/admin', <AdminRoute />, { signedIn: true });
    const table = await screen.findByRole('table', { name: 'Withdrawals' });
    await within(table).findByText('carol');
    const [, paying, waiting] = within(table).getAllByRole('row');
    expect(within(paying as HTMLElement).getByText('Payout sent, not confirmed yet')).toBeInTheDocument();
    expect(within(paying as HTMLElement).getByTitle(HASH)).toBeInTheDocument();
    expect(
      within(waiting as HTMLElement).queryByText('Payout sent, not confirmed yet'),
    ).not.toBeInTheDocument();
  });

  it('edits the level table and refuses a percentage above 100', async () => {
    const api = mockApi({
      'GET /api/me': () => json({ user: admin }),
      'GET /api/admin/withdrawals': () => json(page([])),
      'GET /api/admin/levels': () =>
        json({
          rewards: [
            { level: 1, rewardPercentage: 10 },
            { level: 2, rewardPercentage: 5 },
          ],
        }),
      'PUT /api/admin/levels': () => json({ message: m.levelsSaved, rewards: [] }),
    });
    const { user } = renderFeature('/admin', <AdminRoute />, { signedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Levels' }));
    const level2 = await screen.findByLabelText('Level 2');
    await user.clear(level2);
    await user.type(level2, '150');
    await user.click(screen.getByRole('button', { name: 'Save levels' }));
    expect(await screen.findByText(m.levelsInvalid)).toBeInTheDocument();
    await user.clear(level2);
    await user.type(level2, '6');
    await user.click(screen.getByRole('button', { name: 'Add level' }));
    await user.click(screen.getByRole('button', { name: 'Save levels' }));
    expect(await screen.findByText(m.levelsSaved)).toBeInTheDocument();
    expect(api.callsTo('PUT', '/api/admin/levels')[0]?.body).toEqual({
      rewards: [
        { level: 1, rewardPercentage: 10 },
        { level: 2, rewardPercentage: 6 },
        { level: 3, rewardPercentage: 0 },
      ],
    });
  });
});

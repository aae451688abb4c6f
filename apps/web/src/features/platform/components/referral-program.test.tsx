import { platformMessages as m, type RewardRecord } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import ReferralProgramRoute from '../../../app/routes/referral-program';
import { deferred } from '../../../testing/mock-api';
import { renderFeature } from '../../../testing/render-feature';
import { fail, ok, page, platformApi, platformUser } from '../testing/platform-api';

function reward(n: number): RewardRecord {
  return {
    id: `r${n}`,
    amount: `${n}.5`,
    percentage: 10,
    fromUserName: `user${n}`,
    level: 1,
    createdAt: '2025-03-05T14:02:00.000Z',
  };
}

function table(name: string) {
  return screen.getByRole('table', { name });
}

describe('Referral Program', () => {
  it('shows the rewards, the text, the referral ID with copy and the level table', async () => {
    platformApi(undefined, {
      'POST /platform/level-income/level-reward': () =>
        ok({
          rewards: [
            { level: 1, rewardPercentage: 10 },
            { level: 2, rewardPercentage: 5 },
          ],
        }),
    });
    const { user } = renderFeature('/referral-program', <ReferralProgramRoute />, { signedIn: true });
    expect(await screen.findByRole('heading', { name: 'Referral Program' })).toBeInTheDocument();
    expect(await screen.findByText('$42.50')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Withdraw' })).toHaveAttribute('href', '/withdraw');
    expect(screen.getByText(m.referralText)).toBeInTheDocument();
    expect(screen.getByText('My Referral ID')).toBeInTheDocument();
    expect(screen.getByText(`${window.location.origin}/signup?ref=ALICE1`)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copy referral ID' }));
    expect(await navigator.clipboard.readText()).toBe('ALICE1');
    expect(await screen.findByText('Referral ID copied successfully!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share' })).toBeInTheDocument();

    const levels = await waitFor(() => {
      const t = table('Reward by Level');
      expect(within(t).getByText('Level 2')).toBeInTheDocument();
      return t;
    });
    expect(within(levels).getByText('5%')).toBeInTheDocument();
  });

  it("shows 'Rewards Earned' as $0.00 and no referral ID when the user data has neither", async () => {
    platformApi({ ...platformUser, usdtRewardToken: '', userCode: '' });
    renderFeature('/referral-program', <ReferralProgramRoute />, { signedIn: true });
    await screen.findByRole('heading', { name: 'Referral Program' });
    await waitFor(() => expect(screen.getByText('$0.00')).toBeInTheDocument());
    await waitFor(() => expect(screen.queryByText('My Referral ID')).not.toBeInTheDocument());
  });

  it('numbers history rows across pages (10 × (page − 1) + index + 1) and pages only when there is more than one', async () => {
    const api = platformApi(undefined, {
      'POST /platform/level-income/list': (call) => {
        const { page: n } = call.body as { page: number };
        return n === 1
          ? ok(
              page(
                Array.from({ length: 10 }, (_, i) => reward(i + 1)),
                1,
                2,
              ),
            )
          : ok(page([reward(11), reward(12)], 2, 2));
      },
    });
    const { user } = renderFeature('/referral-program', <ReferralProgramRoute />, { signedIn: true });
    const history = await screen.findByRole('table', { name: 'Reward History' });
    await waitFor(() => expect(within(history).getByText('user10')).toBeInTheDocument());
    const header = within(history)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(header).toEqual(['No', 'Amount', '%', 'Referred User', 'Date']);
    const firstRow = within(history).getAllByRole('row')[1] as HTMLElement;
    expect(
      within(firstRow)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['1', '$1.50', '10%', 'user1', expect.stringContaining('2025')]);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(history).getByText('user11')).toBeInTheDocument());
    const rows = within(history).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['11', '12']);
    expect(api.callsTo('POST', '/platform/level-income/list').at(-1)?.body).toEqual({
      filters: {},
      limit: 10,
      page: 2,
    });
  });

  it("shows 'Loading...' then 'No Records Found.' and no pagination for one page", async () => {
    const slow = deferred();
    platformApi(undefined, { 'POST /platform/level-income/list': () => slow.promise });
    renderFeature('/referral-program', <ReferralProgramRoute />, { signedIn: true });
    const history = await screen.findByRole('table', { name: 'Reward History' });
    expect(within(history).getByText(m.loading)).toBeInTheDocument();
    slow.resolve(ok(page([])));
    await waitFor(() => expect(within(history).getByText(m.noRecords)).toBeInTheDocument());
    expect(screen.queryByRole('navigation', { name: 'Reward History pages' })).not.toBeInTheDocument();
  });

  it("logs list failures and shows 'No Records Found.' (docs/spec/01-core-screens.md §8)", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    platformApi(undefined, {
      'POST /platform/level-income/list': () => fail('boom', '5000'),
      'POST /platform/level-income/level-reward': () => fail('boom', '5000', 500),
    });
    renderFeature('/referral-program', <ReferralProgramRoute />, { signedIn: true });
    await waitFor(() => expect(within(table('Reward History')).getByText(m.noRecords)).toBeInTheDocument());
    await waitFor(() => expect(within(table('Reward by Level')).getByText(m.noRecords)).toBeInTheDocument());
    expect(screen.queryByText('boom')).not.toBeInTheDocument();
    expect(log).toHaveBeenCalled();
  });
});

import { platformMessages as m, type WithdrawRecord } from '@gridbot/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import WithdrawRoute from '../../../app/routes/withdraw';
import { renderFeature } from '../../../testing/render-feature';
import { fail, ok, page, platformApi } from '../testing/platform-api';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const HASH = `0x${'cd'.repeat(32)}`;

function withdrawal(
  id: string,
  status: WithdrawRecord['status'],
  txHash: string | null = null,
): WithdrawRecord {
  return {
    id,
    amount: '10',
    fee: '1',
    toAddress: ADDRESS,
    status,
    txHash,
    createdAt: '2025-03-05T14:02:00.000Z',
    rejectReason: null,
  };
}

async function openPage() {
  const view = renderFeature('/withdraw', <WithdrawRoute />, { signedIn: true });
  await screen.findByRole('heading', { name: 'Withdraw' });
  await waitFor(() => expect(screen.getByText('42.50')).toBeInTheDocument());
  return view;
}

describe('Withdraw', () => {
  it('requires the amount and the address (docs/spec/02-bots-wallet-account.md §5) and rejects a malformed address', async () => {
    const api = platformApi();
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText(m.amountRequired)).toBeInTheDocument();
    expect(screen.getByText(m.addressRequired)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Wallet Address (BEP-20)'), '0x123');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText(m.addressInvalid)).toBeInTheDocument();
    expect(api.callsTo('POST', '/platform/withdraw/create')).toHaveLength(0);
  });

  it('takes only digits and a dot in the amount, refusing anything else as typed, and sends {amount, toAddress}', async () => {
    const api = platformApi(undefined, {
      'POST /platform/withdraw/create': () => ok(withdrawal('w1', 'PENDING'), m.withdrawRequested),
    });
    const { user } = await openPage();
    const amount = screen.getByLabelText('Withdraw Amount (USDT)');
    await user.type(amount, '1a2.5.0x');
    // A pasted address: typing its 42 characters one by one re-renders the form 42 times.
    await user.click(screen.getByLabelText('Wallet Address (BEP-20)'));
    await user.paste(ADDRESS);
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(amount).toHaveValue('1a2.5.0x');
    expect(amount).toHaveAccessibleDescription(m.amountNumber);
    expect(api.callsTo('POST', '/platform/withdraw/create')).toHaveLength(0);
    await user.clear(amount);
    await user.type(amount, '12.50');
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText(m.withdrawRequested)).toBeInTheDocument();
    expect(api.callsTo('POST', '/platform/withdraw/create')[0]?.body).toEqual({
      amount: '12.50',
      toAddress: ADDRESS,
    });
  });

  it("puts the server's checksum refusal under the address", async () => {
    platformApi(undefined, { 'POST /platform/withdraw/create': () => fail(m.addressChecksum) });
    const { user } = await openPage();
    await user.type(screen.getByLabelText('Withdraw Amount (USDT)'), '5');
    await user.click(screen.getByLabelText('Wallet Address (BEP-20)'));
    await user.paste(ADDRESS.toLowerCase().replace('0x5', '0x6'));
    await user.click(screen.getByRole('button', { name: 'Withdraw' }));
    const address = screen.getByLabelText('Wallet Address (BEP-20)');
    await waitFor(() => expect(address).toHaveAccessibleDescription(m.addressChecksum));
  });

  it('validates the transfer to the USDT wallet against the rewards balance (docs/spec/02-bots-wallet-account.md §5)', async () => {
    const api = platformApi(undefined, {
      'POST /platform/swap/usdt-reward/create': () => ok(null, m.swapDone),
    });
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Transfer to USDT Wallet' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transfer to USDT Wallet' });
    const amount = within(dialog).getByLabelText('Amount');
    const submit = within(dialog).getByRole('button', { name: 'Transfer' });

    await user.click(submit);
    expect(await within(dialog).findByText(m.amountRequired)).toBeInTheDocument();
    await user.type(amount, 'abc');
    await user.click(submit);
    expect(await within(dialog).findByText(m.amountNumber)).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '0');
    await user.click(submit);
    expect(await within(dialog).findByText(m.amountPositive)).toBeInTheDocument();
    await user.clear(amount);
    await user.type(amount, '50');
    await user.click(submit);
    expect(await within(dialog).findByText(m.amountAtMost('42.5'))).toBeInTheDocument();
    expect(api.callsTo('POST', '/platform/swap/usdt-reward/create')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'ALL' }));
    expect(amount).toHaveValue('42.5');
    await user.click(submit);
    expect(await screen.findByText(m.swapDone)).toBeInTheDocument();
    expect(api.callsTo('POST', '/platform/swap/usdt-reward/create')[0]?.body).toEqual({ amount: '42.5' });
  });

  it('shows the user the fee before asking, the fee kept from each withdrawal and why one was rejected', async () => {
    platformApi(undefined, {
      'POST /platform/withdraw/list': () =>
        ok({
          ...page([{ ...withdrawal('w2', 'REJECTED'), rejectReason: 'address on a sanctions list' }]),
          withdrawFee: '1',
        }),
    });
    await openPage();
    const amount = screen.getByLabelText('Withdraw Amount (USDT)');
    await waitFor(() =>
      expect(amount).toHaveAccessibleDescription(
        'A fee of 1 USDT is kept from the amount; the address receives the rest.',
      ),
    );
    const history = screen.getByRole('table', { name: 'Withdraw History' });
    await waitFor(() => expect(within(history).getByText('REJECTED')).toBeInTheDocument());
    expect(within(history).getByText('Reason: address on a sanctions list')).toBeInTheDocument();
    expect(within(history).getByText('Fee $1.00')).toBeInTheDocument();
  });

  it('lists withdrawals with their upper-case status and the hash of a sent one', async () => {
    platformApi(undefined, {
      'POST /platform/withdraw/list': () =>
        ok(page([withdrawal('w3', 'SENT', HASH), withdrawal('w2', 'REJECTED'), withdrawal('w1', 'PENDING')])),
    });
    await openPage();
    const history = screen.getByRole('table', { name: 'Withdraw History' });
    await waitFor(() => expect(within(history).getByText('SENT')).toBeInTheDocument());
    expect(
      within(history)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['No', 'Amount', 'Wallet Address', 'Status', 'Date']);
    expect(within(history).getByText('REJECTED')).toBeInTheDocument();
    expect(within(history).getByText('PENDING')).toBeInTheDocument();
    expect(within(history).getByRole('link')).toHaveAttribute('href', `https://bscscan.com/tx/${HASH}`);
  });
});

import { type DepositRecord, platformMessages as m } from '@gridbot/shared';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import WalletDepositRoute from '../../../app/routes/wallet-deposit';
import { renderFeature } from '../../../testing/render-feature';
import { listenKey } from '../hooks/use-listen-window';
import { DEPOSIT_ADDRESS, fail, ok, page, platformApi, platformUser } from '../testing/platform-api';

const deposit: DepositRecord = {
  id: 'd1',
  token: 'USDT',
  amount: '25.5',
  transactionHash: `0x${'ab'.repeat(32)}`,
  createdAt: '2025-03-05T14:02:00.000Z',
};

const key = listenKey(platformUser.id);

describe('Wallet Deposit', () => {
  it('shows the BEP-20 address with a QR code, copies it and lists deposits', async () => {
    platformApi(undefined, { 'POST /platform/wallet/deposit/list': () => ok(page([deposit])) });
    const { user } = renderFeature('/Wallet-deposit', <WalletDepositRoute />, { signedIn: true });
    expect(await screen.findByText(DEPOSIT_ADDRESS)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR code of your deposit address' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy address' }));
    expect(await navigator.clipboard.readText()).toBe(DEPOSIT_ADDRESS);
    expect(await screen.findByText(m.addressCopied)).toBeInTheDocument();

    const history = screen.getByRole('table', { name: 'Deposit History' });
    await waitFor(() => expect(within(history).getByText('25.50')).toBeInTheDocument());
    expect(
      within(history)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['No', 'Coin', 'Amount', 'Transaction Hash', 'Date']);
    expect(within(history).getByRole('link')).toHaveAttribute(
      'href',
      `https://bscscan.com/tx/${deposit.transactionHash}`,
    );
  });

  it('says so when deposits are not configured', async () => {
    platformApi({ ...platformUser, qrCode: null });
    renderFeature('/Wallet-deposit', <WalletDepositRoute />, { signedIn: true });
    expect(await screen.findByText(m.depositsNotConfigured)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'make payment' })).not.toBeInTheDocument();
  });

  it("'make payment' opens a window whose countdown survives a reload", async () => {
    const api = platformApi(undefined, {
      'POST /platform/wallet/usdt/deposit/listen': () =>
        ok({ usdtListenExpiredInSeconds: 900, listeningUntil: new Date(Date.now() + 900_000).toISOString() }),
    });
    const { user } = renderFeature('/Wallet-deposit', <WalletDepositRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'make payment' }));
    const timer = await screen.findByRole('timer', { name: 'Listening for your deposit' });
    expect(timer).toHaveTextContent(/1[45]:\d\d/);
    expect(api.callsTo('POST', '/platform/wallet/usdt/deposit/listen')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'make payment' })).not.toBeInTheDocument();
    const end = Number(localStorage.getItem(key));
    expect(end - Date.now()).toBeGreaterThan(890_000);

    cleanup();
    renderFeature('/Wallet-deposit', <WalletDepositRoute />, { signedIn: true });
    expect(await screen.findByRole('timer', { name: 'Listening for your deposit' })).toHaveTextContent(
      /1[45]:\d\d/,
    );
    expect(api.callsTo('POST', '/platform/wallet/usdt/deposit/listen')).toHaveLength(1);
  });

  it('closes the window at zero and brings the buttons back', async () => {
    platformApi();
    const start = Date.now();
    localStorage.setItem(key, String(start + 120_000));
    renderFeature('/Wallet-deposit', <WalletDepositRoute />, { signedIn: true });
    expect(await screen.findByRole('timer')).toHaveTextContent(/0[0-2]:\d\d/);
    // The clock reaches the window's end (however long the render took): the next second's tick closes it.
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => start + 120_000);
    try {
      expect(await screen.findByRole('button', { name: 'make payment' })).toBeInTheDocument();
      expect(screen.queryByRole('timer')).not.toBeInTheDocument();
      expect(localStorage.getItem(key)).toBeNull();
    } finally {
      clock.mockRestore();
    }
  });

  it("'sync status' scans at once and toasts the answer; errors show the server's msg", async () => {
    let configured = true;
    const api = platformApi(undefined, {
      'POST /platform/wallet/usdt/deposit/sync': () =>
        configured ? ok({ credited: 1 }, m.synced(1)) : fail(m.depositsNotConfigured, '5030', 503),
    });
    const { user } = renderFeature('/Wallet-deposit', <WalletDepositRoute />, { signedIn: true });
    await user.click(await screen.findByRole('button', { name: 'sync status' }));
    expect(await screen.findByText(m.synced(1))).toBeInTheDocument();
    expect(api.callsTo('POST', '/platform/wallet/usdt/deposit/sync')).toHaveLength(1);
    configured = false;
    await user.click(screen.getByRole('button', { name: 'sync status' }));
    expect(await screen.findByText(m.depositsNotConfigured)).toBeInTheDocument();
  });
});

describe('Wallet Deposit on a paper install', () => {
  it('offers a labelled simulated deposit and lists it as Simulated', async () => {
    const credited: DepositRecord[] = [];
    const api = platformApi(
      { ...platformUser, qrCode: null },
      {
        'POST /platform/wallet/deposit/options': () => ok({ chain: false, simulated: true }),
        'POST /platform/wallet/deposit/simulate': (call) => {
          const { amount, token } = call.body as { amount: string; token: string };
          credited.push({
            ...deposit,
            id: 'sim',
            token: token as DepositRecord['token'],
            amount,
            transactionHash: 'SIMULATED-1',
          });
          return ok(credited[0], m.simulatedDepositCredited(amount, token));
        },
        'POST /platform/wallet/deposit/list': () => ok(page(credited)),
      },
    );
    const { user } = renderFeature('/Wallet-deposit', <WalletDepositRoute />, { signedIn: true });
    const card = await screen.findByTestId('simulated-deposit');
    expect(card).toHaveTextContent('Paper install · simulated');
    expect(screen.queryByText('No deposit address can be shown.', { exact: false })).not.toBeInTheDocument();
    const amount = within(card).getByLabelText('Amount');
    await user.clear(amount);
    await user.type(amount, '150');
    await user.click(within(card).getByRole('button', { name: 'Deposit (simulated)' }));
    expect(await screen.findByText(m.simulatedDepositCredited('150', 'USDT'))).toBeInTheDocument();
    expect(api.callsTo('POST', '/platform/wallet/deposit/simulate')[0]?.body).toEqual({
      token: 'USDT',
      amount: '150',
    });
    const history = screen.getByRole('table', { name: 'Deposit History' });
    await waitFor(() => expect(within(history).getByText('Simulated')).toBeInTheDocument());
    expect(within(history).queryByRole('link')).not.toBeInTheDocument();
  });

  it.each([
    ['-5', m.amountPositive],
    ['1e12', m.amountNumber],
  ])('refuses a simulated deposit of %j with the message and credits nothing', async (typed, message) => {
    const api = platformApi(
      { ...platformUser, qrCode: null },
      {
        'POST /platform/wallet/deposit/options': () => ok({ chain: false, simulated: true }),
        'POST /platform/wallet/deposit/list': () => ok(page([])),
      },
    );
    const { user } = renderFeature('/Wallet-deposit', <WalletDepositRoute />, { signedIn: true });
    const card = await screen.findByTestId('simulated-deposit');
    const amount = within(card).getByLabelText('Amount');
    await user.clear(amount);
    await user.type(amount, typed);
    expect(amount).toHaveValue(typed);
    await user.click(within(card).getByRole('button', { name: 'Deposit (simulated)' }));
    expect(amount).toHaveAccessibleDescription(message);
    expect(api.callsTo('POST', '/platform/wallet/deposit/simulate')).toHaveLength(0);
  });
});

import { chainCursors } from '@gridbot/db';
import { platformMessages as m } from '@gridbot/shared';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainConfig, defaultPlatformConfig } from '../../config/platform-config';
import { platformDepsOf } from '../../config/platform-runtime';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { findWallet } from '../credit/ledger.repo';
import { DepositWatcher } from './deposit-watcher';
import { platform, signUp } from './testing/platform-fixtures';
import { startTestChain, type TestChain } from './testing/test-chain';

const CONFIRMATIONS = 5;
const MNEMONIC = 'test test test test test test test test test test test junk';

/** A real EVM node (ganache) on 127.0.0.1 with a deployed BEP-20 token; blocks are mined one per tx. */
describe('BEP-20 deposits against a local EVM node', () => {
  let testChain: TestChain;
  let rpcUrl: string;
  let client: TestChain['client'];
  let send: TestChain['transfer'];
  let rpc: TestChain['rpc'];
  let t: TestApp;
  let chain: ChainConfig;

  beforeAll(async () => {
    testChain = await startTestChain();
    ({ rpcUrl, client, rpc } = testChain);
    send = testChain.transfer;
    chain = {
      rpcUrl,
      confirmations: CONFIRMATIONS,
      mnemonic: MNEMONIC,
      tokens: { USDT: testChain.token },
      startBlock: 0,
      pollMs: 3_600_000,
      maxBlockRange: 1000,
      hotWalletKey: undefined,
    };
    t = await createTestApp({ platform: { ...defaultPlatformConfig, chain } });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await testChain?.close();
  });

  const mine = async (blocks: number) => {
    for (let i = 0; i < blocks; i += 1) await rpc('evm_mine');
  };
  const usdtOf = async (userId: string) => Number((await findWallet(t.deps.db, userId))?.usdtToken ?? 0);

  it('credits a transfer once, only after the confirmation depth, also across watcher restarts', async () => {
    const user = await signUp(t);
    const me = await call(t, 'GET', '/api/me', undefined, { token: user.token });
    const qr = (me.body.user as { qrCode: { value: Address; base64: string } }).qrCode;
    expect(qr.value).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(qr.base64).toMatch(/^data:image\/png;base64,/);

    const listen = await platform(t, '/wallet/usdt/deposit/listen', user.token);
    expect(listen.body).toMatchObject({ code: '0000', data: { usdtListenExpiredInSeconds: 900 } });

    await send(qr.value, '25');
    await mine(CONFIRMATIONS - 2); // the transfer has CONFIRMATIONS - 1 confirmations
    const early = await platform(t, '/wallet/usdt/deposit/sync', user.token);
    expect(early.body).toMatchObject({ code: '0000', msg: m.synced(0) });
    expect(await usdtOf(user.id)).toBe(0);

    await mine(1);
    const due = await platform(t, '/wallet/usdt/deposit/sync', user.token);
    expect(due.body.msg).toBe(m.synced(1));
    expect(await usdtOf(user.id)).toBe(25);
    await mine(3);
    await platform(t, '/wallet/usdt/deposit/sync', user.token);
    expect(await usdtOf(user.id)).toBe(25);

    // A restarted watcher resumes from the stored cursor; even with the cursor lost, nothing is credited twice.
    const restarted = new DepositWatcher(platformDepsOf(t.deps), chain, client);
    expect(await restarted.scan()).toEqual([]);
    await t.deps.db.update(chainCursors).set({ lastBlock: -1 });
    expect(await new DepositWatcher(platformDepsOf(t.deps), chain, client).scan()).toEqual([]);
    expect(await usdtOf(user.id)).toBe(25);

    const history = await platform(t, '/wallet/deposit/list', user.token, {
      filters: {},
      limit: 10,
      page: 1,
    });
    expect(history.body.data).toMatchObject({
      records: [{ token: 'USDT', amount: '25', transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) }],
    });
  }, 60_000);

  it('never credits a transfer that a reorganisation removed before the depth', async () => {
    const user = await signUp(t);
    const me = await call(t, 'GET', '/api/me', undefined, { token: user.token });
    const address = (me.body.user as { qrCode: { value: Address } }).qrCode.value;
    const snapshot = await rpc('evm_snapshot');
    await send(address, '7');
    await mine(CONFIRMATIONS - 2);
    await platform(t, '/wallet/usdt/deposit/sync', user.token);
    expect(await usdtOf(user.id)).toBe(0);

    expect(await rpc('evm_revert', [snapshot])).toBe(true);
    await mine(CONFIRMATIONS + 3); // the replacement chain is longer and has no transfer
    const after = await platform(t, '/wallet/usdt/deposit/sync', user.token);
    expect(after.body.msg).toBe(m.synced(0));
    expect(await usdtOf(user.id)).toBe(0);
    const history = await platform(t, '/wallet/deposit/list', user.token, {});
    expect((history.body.data as { records: unknown[] }).records).toEqual([]);
  }, 60_000);
});

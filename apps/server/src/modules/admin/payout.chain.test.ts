import { withdrawals } from '@gridbot/db';
import { platformMessages } from '@gridbot/shared';
import { eq } from 'drizzle-orm';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlatformConfig } from '../../config/platform-config';
import { call } from '../../testing/http';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { findWallet } from '../credit/ledger.repo';
import { ledgerProblems } from '../platform/testing/ledger-checks';
import { fund, platform, signUp } from '../platform/testing/platform-fixtures';
import { startTestChain, type TestChain } from '../platform/testing/test-chain';

/** Approval with HOT_WALLET_PRIVATE_KEY: the platform pays (amount − fee) from its hot wallet via viem. */
describe('withdrawal payout from the hot wallet, against a local EVM node', () => {
  let chain: TestChain;
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    // The hot wallet holds 100 tokens: four payouts of 19 fit, then one of 29 does not.
    chain = await startTestChain('100');
    t = await createTestApp({
      platform: {
        ...defaultPlatformConfig,
        chain: {
          rpcUrl: chain.rpcUrl,
          confirmations: 5,
          mnemonic: undefined,
          tokens: { USDT: chain.token },
          startBlock: 0,
          pollMs: 3_600_000,
          maxBlockRange: 1000,
          hotWalletKey: chain.ownerKey,
        },
      },
    });
    admin = (await signUp(t, undefined, 'admin@example.com')).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  const withdraw = async (token: string, toAddress: Address, amount = '20') => {
    const res = await platform(t, '/withdraw/create', token, { amount, toAddress });
    expect(res.body.code).toBe('0000');
    return (res.body.data as { id: string }).id;
  };
  const approve = (id: string) =>
    call(t, 'POST', `/api/admin/withdrawals/${id}/approve`, {}, { token: admin });

  it('sends amount minus fee on approval and records the transaction hash the member sees', async () => {
    const member = await signUp(t);
    await fund(t, member.id, 'usdtRewardToken', '50');
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const id = await withdraw(member.token, to);

    const res = await approve(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const hash = (res.body.withdrawal as { txHash: `0x${string}` }).txHash;
    expect(res.body.withdrawal).toMatchObject({
      status: 'SENT',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });

    const receipt = await chain.client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.to?.toLowerCase()).toBe(chain.token.toLowerCase());
    expect(await chain.balanceOf(to)).toBe(19);
    expect(await chain.balanceOf(privateKeyToAccount(chain.ownerKey).address)).toBe(81);
    const list = await platform(t, '/withdraw/list', member.token, { filters: {}, limit: 10, page: 1 });
    expect((list.body.data as { records: unknown[] }).records).toEqual([
      expect.objectContaining({ id, status: 'SENT', txHash: hash, amount: '20', fee: '1' }),
    ]);
    const log = await call(t, 'GET', '/api/admin/actions', undefined, { token: admin });
    expect((log.body.records as unknown[])[0]).toMatchObject({
      action: 'withdrawal.approve',
      target: id,
      details: { txHash: hash, sentByHotWallet: true },
    });
    // A second approval neither pays nor changes anything.
    expect((await approve(id)).status).toBe(409);
    expect(await chain.balanceOf(to)).toBe(19);
  }, 60_000);

  // Bites on PostgreSQL (`npm run test:pg`), where approvals overlap; PGlite runs transactions one by one.
  it('pays each of several approvals made at once exactly once', async () => {
    const members = [await signUp(t), await signUp(t), await signUp(t)];
    const targets = members.map(() => privateKeyToAccount(generatePrivateKey()).address);
    const ids: string[] = [];
    for (const [i, member] of members.entries()) {
      await fund(t, member.id, 'usdtRewardToken', '50');
      ids.push(await withdraw(member.token, targets[i] as Address));
    }
    const results = await Promise.all(ids.map(approve));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const hashes = results.map((r) => (r.body.withdrawal as { txHash: `0x${string}` }).txHash);
    expect(new Set(hashes).size).toBe(3);
    for (const hash of hashes) {
      expect((await chain.client.waitForTransactionReceipt({ hash })).status).toBe('success');
    }
    for (const to of targets) expect(await chain.balanceOf(to)).toBe(19);
    expect(await chain.balanceOf(privateKeyToAccount(chain.ownerKey).address)).toBe(24);
  }, 60_000);

  it('leaves the withdrawal PENDING and unpaid when the chain refuses the payout', async () => {
    const member = await signUp(t);
    await fund(t, member.id, 'usdtRewardToken', '50');
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const id = await withdraw(member.token, to, '30');

    const res = await approve(id); // the hot wallet has 24 tokens left, the payout is 29
    expect(res.status).toBe(500); // the error (estimateGas revert) goes to the log, not to the browser
    const [row] = await t.deps.db.select().from(withdrawals).where(eq(withdrawals.id, id));
    expect(row).toMatchObject({ status: 'PENDING', txHash: null });
    expect(await chain.balanceOf(to)).toBe(0);
    expect((await findWallet(t.deps.db, member.id))?.usdtRewardToken).toBe('20');
    expect(await ledgerProblems(t, member.id)).toEqual([]);
    // The send was tried: the hot wallet never tries this row again on its own (docs/trading-rules.md §3, no second payout).
    const again = await approve(id);
    expect(again).toMatchObject({ status: 409, body: { message: platformMessages.payoutOutcomeUnknown } });
    expect(await chain.balanceOf(to)).toBe(0);
    // The administrator can still reject it (refund) afterwards.
    const rejected = await call(t, 'POST', `/api/admin/withdrawals/${id}/reject`, {}, { token: admin });
    expect(rejected.status).toBe(200);
    expect((await findWallet(t.deps.db, member.id))?.usdtRewardToken).toBe('50');
  }, 60_000);

  it('marks a withdrawal SENT only once its payout is mined, not when it is handed to the node', async () => {
    const member = await signUp(t);
    await fund(t, member.id, 'usdtRewardToken', '50');
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const id = await withdraw(member.token, to, '11');

    await chain.rpc('miner_stop');
    const approval = approve(id);
    // The transfer waits in the node's pool: the row is being paid (its hash recorded), not paid.
    const row = async () => (await t.deps.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0];
    await expect.poll(async () => (await row())?.txHash, { timeout: 10_000 }).toMatch(/^0x[0-9a-f]{64}$/);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await row()).toMatchObject({ status: 'PENDING' });
    expect(await chain.balanceOf(to)).toBe(0);

    await chain.rpc('miner_start');
    const res = await approval;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.withdrawal).toMatchObject({ status: 'SENT', txHash: (await row())?.txHash });
    expect(await chain.balanceOf(to)).toBe(10);
  }, 60_000);
});

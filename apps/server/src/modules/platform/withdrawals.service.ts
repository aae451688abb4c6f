import { platformMessages as m, money, type WithdrawHistoryPage, type WithdrawRecord } from '@gridbot/shared';
import { getAddress, isAddress, zeroAddress } from 'viem';
import type { PlatformDeps } from '../../config/platform-deps';
import { HttpError } from '../../lib/http-error';
import { applyChanges, ensureWallet, findWallet, InsufficientBalanceError } from '../credit';
import { recordSecurityEvent } from '../security';
import { offsetOf, toPage } from './paging';
import type { WithdrawalRow } from './platform.repo';
import * as repo from './platform.repo';
import type { ListPage } from './subscriptions.service';

export function toWithdrawRecord(r: WithdrawalRow): WithdrawRecord {
  return {
    id: r.id,
    amount: money(r.amount).toFixed(),
    fee: money(r.fee).toFixed(),
    toAddress: r.toAddress,
    status: r.status,
    txHash: r.txHash,
    createdAt: r.createdAt.toISOString(),
    rejectReason: r.rejectReason,
  };
}

/**
 * EIP-55: a mixed-case address must carry a valid checksum; the stored form is always checksummed. The zero
 * address is well-formed but burns what it receives.
 */
export function checksummedAddress(address: string): `0x${string}` {
  if (!isAddress(address, { strict: false })) throw new HttpError(400, m.addressInvalid);
  if (!isAddress(address, { strict: true })) throw new HttpError(400, m.addressChecksum);
  const checksummed = getAddress(address);
  if (checksummed === zeroAddress) throw new HttpError(400, m.addressZero);
  return checksummed;
}

async function rewardBalance(deps: PlatformDeps, userId: string): Promise<string> {
  await ensureWallet(deps.db, userId, deps.platform.freeCredit);
  return money((await findWallet(deps.db, userId))?.usdtRewardToken ?? '0').toFixed();
}

/**
 * Requests a withdrawal of rewards (docs/product.md §5): minimum and fee from config, the amount held at once
 * (usdtRewardToken debited with its ledger row in the withdrawal's transaction); status PENDING.
 */
export async function createWithdrawal(
  deps: PlatformDeps,
  userId: string,
  amount: string,
  toAddress: string,
  ip: string | null = null,
) {
  const address = checksummedAddress(toAddress);
  const { withdrawMin, withdrawFee } = deps.platform;
  if (money(amount).lt(withdrawMin)) throw new HttpError(400, m.withdrawMin(money(withdrawMin).toFixed()));
  if (money(amount).lte(withdrawFee)) throw new HttpError(400, m.withdrawFee(money(withdrawFee).toFixed()));
  const balance = await rewardBalance(deps, userId);
  if (money(amount).gt(balance)) throw new HttpError(400, m.amountAtMost(balance));
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await repo.insertWithdrawal(tx, {
        userId,
        amount: money(amount).toFixed(),
        fee: money(withdrawFee).toFixed(),
        toAddress: address,
      });
      await applyChanges(
        tx,
        userId,
        [{ account: 'usdtRewardToken', delta: money(amount).neg().toFixed() }],
        'withdraw_hold',
        row.id,
        deps.clock.now(),
      );
      // The log entry mails the owner (trigger): a request they did not make is seen at once.
      await recordSecurityEvent(tx, {
        userId,
        type: 'withdrawal_requested',
        ip,
        detail: { amount: `${row.amount} USDT`, toAddress: row.toAddress },
      });
      return toWithdrawRecord(row);
    });
  } catch (error) {
    // A concurrent request spent the balance between the check and the debit.
    if (error instanceof InsufficientBalanceError) throw new HttpError(400, m.amountAtMost(error.have));
    throw error;
  }
}

/** 'transfer to usdt wallet' (docs/spec/02-bots-wallet-account.md §5): rewards → USDT wallet, at most the rewards balance. */
export async function swapRewardToUsdt(deps: PlatformDeps, userId: string, amount: string) {
  const balance = await rewardBalance(deps, userId);
  if (money(amount).gt(balance)) throw new HttpError(400, m.amountAtMost(balance));
  try {
    await deps.db.transaction(async (tx) => {
      await applyChanges(
        tx,
        userId,
        [
          { account: 'usdtRewardToken', delta: money(amount).neg().toFixed() },
          { account: 'usdtToken', delta: money(amount).toFixed() },
        ],
        'swap_reward',
        null,
        deps.clock.now(),
      );
    });
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw new HttpError(400, m.amountAtMost(error.have));
    throw error;
  }
}

export async function listWithdrawals(
  deps: PlatformDeps,
  userId: string,
  input: ListPage,
): Promise<WithdrawHistoryPage> {
  const offset = offsetOf(input.page, input.limit);
  const { rows, total } = await repo.withdrawalsPage(deps.db, userId, offset, input.limit);
  const page = toPage(rows.map(toWithdrawRecord), total, input.page, input.limit);
  // The fee is the user's to know before asking, not only the administrator's.
  return { ...page, withdrawFee: money(deps.platform.withdrawFee).toFixed() };
}

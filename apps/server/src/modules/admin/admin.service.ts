import type { Tx } from '@gridbot/db';
import {
  type AdminLevelsInput,
  type AdminPlanInput,
  type AdminUserRecord,
  type AdminWithdrawRecord,
  platformMessages as m,
  money,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { platformDepsOf } from '../../config/platform-runtime';
import { HttpError, notFound } from '../../lib/http-error';
import { applyChanges } from '../credit';
import type { UserRow } from '../identity';
import { offsetOf, toPage, toPlan, toWithdrawRecord } from '../platform';
import * as repo from './admin.repo';
import { confirmPayout, sendUsdtPayout } from './payout';

export const ADMIN_PAGE_SIZE = 20;

export async function listWithdrawalsForAdmin(
  deps: Pick<AppDeps, 'db'>,
  status: string | undefined,
  page: number,
) {
  const offset = offsetOf(page, ADMIN_PAGE_SIZE);
  const { rows, total } = await repo.withdrawalsPage(deps.db, status, offset, ADMIN_PAGE_SIZE);
  const records: AdminWithdrawRecord[] = rows.map(({ w, username, email }) => ({
    ...toWithdrawRecord(w),
    userId: w.userId,
    username,
    email,
    rejectReason: w.rejectReason,
    decidedAt: w.decidedAt?.toISOString() ?? null,
  }));
  return toPage(records, total, page, ADMIN_PAGE_SIZE);
}

async function lockPending(tx: Tx, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound();
  const row = await repo.lockWithdrawal(tx, id);
  if (!row) throw notFound();
  if (row.status !== 'PENDING') throw new HttpError(409, m.withdrawalNotPending);
  return row;
}

/**
 * PENDING → SENT. With an administrator's hash (a manual payout, or one checked on the chain) it is recorded.
 * Without one the hot wallet pays amount − fee, intent first (docs/trading-rules.md §3): the row is marked as being paid and
 * committed before the send, so a crash or a lost commit after the send can never lead to a second payout.
 */
export async function approveWithdrawal(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  admin: UserRow,
  id: string,
  txHash: string | undefined,
) {
  if (txHash) return markSent(deps, admin, id, txHash.toLowerCase(), false);
  const chain = platformDepsOf(deps).platform.chain;
  if (!chain?.hotWalletKey) throw new HttpError(400, m.txHashRequired);
  const row = await deps.db.transaction(async (tx) => {
    const pending = await lockPending(tx, id);
    if (pending.payoutStartedAt) throw new HttpError(409, m.payoutOutcomeUnknown);
    await repo.updateWithdrawal(tx, id, { payoutStartedAt: deps.clock.now() });
    return pending;
  });
  // One payout at a time from the hot wallet, across processes: two sends at once take the same nonce and
  // the node refuses the second. The advisory lock is held until the transfer is handed to the node, and
  // its hash is recorded with it, so an administrator can look it up whatever happens next.
  const hash = await deps.db.transaction(async (tx) => {
    await repo.lockHotWalletPayouts(tx);
    const net = money(row.amount).minus(row.fee).toFixed();
    const sent = await sendUsdtPayout(chain, row.toAddress as `0x${string}`, net);
    await repo.updateWithdrawal(tx, id, { txHash: sent });
    return sent;
  });
  // SENT once mined and succeeded. No transaction is held while the chain makes its block: embedded
  // (PGlite) has one connection, which every other request needs meanwhile.
  await confirmPayout(chain, hash);
  return markSent(deps, admin, id, hash, true);
}

async function markSent(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  admin: UserRow,
  id: string,
  hash: string,
  byHotWallet: boolean,
) {
  return deps.db.transaction(async (tx) => {
    await lockPending(tx, id);
    return markSentIn(tx, deps, admin, id, hash, byHotWallet);
  });
}

async function markSentIn(
  tx: Tx,
  deps: Pick<AppDeps, 'clock'>,
  admin: UserRow,
  id: string,
  hash: string,
  byHotWallet: boolean,
) {
  const updated = await repo.updateWithdrawal(
    tx,
    id,
    { status: 'SENT', txHash: hash, decidedBy: admin.id, decidedAt: deps.clock.now() },
    true,
  );
  await repo.logAdminAction(tx, admin, 'withdrawal.approve', id, {
    txHash: hash,
    sentByHotWallet: byHotWallet,
  });
  if (!updated) throw new HttpError(409, m.withdrawalNotPending);
  return toWithdrawRecord(updated);
}

/** PENDING → REJECTED: the held amount goes back to usdtRewardToken with its ledger row. */
export async function rejectWithdrawal(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  admin: UserRow,
  id: string,
  reason: string | undefined,
) {
  return deps.db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    const updated = await repo.updateWithdrawal(tx, id, {
      status: 'REJECTED',
      rejectReason: reason ?? null,
      decidedBy: admin.id,
      decidedAt: deps.clock.now(),
    });
    await applyChanges(
      tx,
      row.userId,
      [{ account: 'usdtRewardToken', delta: row.amount }],
      'withdraw_refund',
      id,
      deps.clock.now(),
    );
    await repo.logAdminAction(tx, admin, 'withdrawal.reject', id, { reason: reason ?? null });
    if (!updated) throw new Error('withdrawal vanished under its lock');
    return toWithdrawRecord(updated);
  });
}

export async function listAllPlans(deps: Pick<AppDeps, 'db'>) {
  return (await repo.allPlans(deps.db)).map(toPlan);
}

export async function savePlan(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  admin: UserRow,
  id: string | null,
  input: AdminPlanInput,
) {
  return deps.db.transaction(async (tx) => {
    const values = {
      name: input.name,
      usdtToken: String(input.usdtToken),
      ifcToken: String(input.ifcToken),
      ifxToken: String(input.ifxToken),
      availableCredit: String(input.availableCredit),
      // An edit that leaves `active` out keeps the plan as it was (a new one starts active).
      ...(input.active === undefined ? (id ? {} : { active: true }) : { active: input.active }),
      updatedAt: deps.clock.now(),
    };
    if (id && !/^[0-9a-f-]{36}$/i.test(id)) throw notFound();
    const row = await repo.writePlan(tx, id, values);
    if (id && !row) throw notFound();
    if (!row) throw new Error('plan write returned nothing');
    await repo.logAdminAction(tx, admin, id ? 'plan.update' : 'plan.create', row.id, values);
    return toPlan(row);
  });
}

/** Replaces the level table (levels 1..n); earlier rewards keep the percentage they were paid with. */
export async function saveLevels(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  admin: UserRow,
  input: AdminLevelsInput,
) {
  await deps.db.transaction(async (tx) => {
    await repo.replaceLevels(
      tx,
      input.rewards.map((r) => ({
        level: r.level,
        rewardPercentage: String(r.rewardPercentage),
        updatedAt: deps.clock.now(),
      })),
    );
    await repo.logAdminAction(tx, admin, 'levels.replace', null, input.rewards);
  });
}

export async function listUsers(deps: Pick<AppDeps, 'db'>, page: number) {
  const { rows, total } = await repo.usersPage(deps.db, offsetOf(page, ADMIN_PAGE_SIZE), ADMIN_PAGE_SIZE);
  const dec = (v: string | undefined | null) => money(v ?? '0').toFixed();
  const records: AdminUserRecord[] = rows.map(({ u, referrerCode, w }) => ({
    id: u.id,
    email: u.email,
    username: u.username,
    role: u.role,
    userCode: u.userCode,
    referredByUserCode: referrerCode,
    usdtToken: dec(w?.usdtToken),
    ifcToken: dec(w?.ifcToken),
    ifxToken: dec(w?.ifxToken),
    usdtRewardToken: dec(w?.usdtRewardToken),
    availableCredit: dec(w?.availableCredit),
    createdAt: u.createdAt.toISOString(),
  }));
  return toPage(records, total, page, ADMIN_PAGE_SIZE);
}

export async function listContactMessages(deps: Pick<AppDeps, 'db'>, page: number) {
  const offset = offsetOf(page, ADMIN_PAGE_SIZE);
  const { rows, total } = await repo.contactMessagesPage(deps.db, offset, ADMIN_PAGE_SIZE);
  const records = rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  return toPage(records, total, page, ADMIN_PAGE_SIZE);
}

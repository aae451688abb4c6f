import {
  type DepositListenData,
  type DepositRecord,
  platformMessages as m,
  money,
  type PlatformPage,
} from '@gridbot/shared';
import { createPublicClient, http, type PublicClient } from 'viem';
import type { AppDeps } from '../../app/deps';
import type { PlatformDeps } from '../../config/platform-deps';
import { platformDepsOf } from '../../config/platform-runtime';
import { HttpError } from '../../lib/http-error';
import { applyChanges, ensureWallet } from '../credit';
import { depositAddressOf } from './deposit-address';
import { DepositWatcher } from './deposit-watcher';
import { offsetOf, toPage } from './paging';
import * as repo from './platform.repo';
import type { ListPage } from './subscriptions.service';

/** The chain side of a running server: a viem client and the watcher; absent without CHAIN_RPC_URL. */
export interface ChainRuntime {
  client: PublicClient;
  watcher: DepositWatcher;
}

export function createChainRuntime(
  deps: PlatformDeps,
  onError: (e: unknown) => void,
): ChainRuntime | undefined {
  const chain = deps.platform.chain;
  if (!chain) return undefined;
  const client = createPublicClient({ transport: http(chain.rpcUrl, { retryCount: 2 }) }) as PublicClient;
  return { client, watcher: new DepositWatcher(deps, chain, client, onError) };
}

/**
 * The deposit watcher of a process that serves the platform (SUBSCRIPTION_ENABLED with CHAIN_RPC_URL), set on
 * its deps and started: roles call it after building the app, and stop the answer's watcher on shutdown.
 */
export function startDepositWatcher(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'chain'>,
  onError: (e: unknown) => void,
): ChainRuntime | undefined {
  if (!deps.config.subscriptionEnabled) return undefined;
  deps.chain = createChainRuntime(platformDepsOf(deps), onError);
  deps.chain?.watcher.start();
  return deps.chain;
}

function requireChain(chain: ChainRuntime | undefined): ChainRuntime {
  if (!chain) throw new HttpError(503, m.depositsNotConfigured);
  return chain;
}

/** Deposit History of the signed-in user (docs/spec/02-bots-wallet-account.md Wallet Deposit), newest first. */
export async function listDeposits(
  deps: PlatformDeps,
  userId: string,
  input: ListPage,
): Promise<PlatformPage<DepositRecord>> {
  const offset = offsetOf(input.page, input.limit);
  const { rows, total } = await repo.depositsPage(deps.db, userId, offset, input.limit);
  const records = rows.map((r) => ({
    id: r.id,
    token: r.token,
    amount: money(r.amount).toFixed(),
    transactionHash: r.txHash,
    createdAt: r.createdAt.toISOString(),
  }));
  return toPage(records, total, input.page, input.limit);
}

/** 'make payment': opens the listening window and scans at once in the background. */
export async function openListeningWindow(
  deps: PlatformDeps,
  chain: ChainRuntime | undefined,
  userId: string,
): Promise<DepositListenData> {
  const runtime = requireChain(chain);
  const address = await depositAddressOf(deps, userId);
  if (!address) throw new HttpError(503, m.depositsNotConfigured);
  const seconds = deps.platform.usdtListenSeconds;
  const until = new Date(deps.clock.now().getTime() + seconds * 1000);
  await repo.setListenUntil(deps.db, userId, until);
  runtime.watcher.scan().catch(() => {});
  return { usdtListenExpiredInSeconds: seconds, listeningUntil: until.toISOString() };
}

/** 'sync status': scans the confirmed chain now; answers how many of this user's deposits were credited. */
export async function syncDeposits(deps: PlatformDeps, chain: ChainRuntime | undefined, userId: string) {
  const runtime = requireChain(chain);
  await depositAddressOf(deps, userId);
  const credited = await runtime.watcher.scan();
  return m.synced(credited.filter((c) => c.userId === userId).length);
}

/** The transaction hash a simulated deposit is recorded with: never a real hash (those are 0x + 64 hex). */
export const SIMULATED_TX_PREFIX = 'SIMULATED-';

/**
 * Whether this server offers the simulated deposit: only on the paper exchange, with no chain connection
 * (CHAIN_RPC_URL unset) and outside production, so real and simulated money never meet.
 */
export function simulatedDepositsAllowed(options: {
  venue: 'paper' | 'binance';
  production: boolean;
  chain: ChainRuntime | undefined;
  configured: boolean;
}): boolean {
  return options.venue === 'paper' && !options.production && !options.chain && !options.configured;
}

/**
 * Credits a simulated deposit through the same records as a chain deposit (a deposits row, then the
 * ledger change with reason 'deposit', in one transaction), so subscriptions, referral rewards and
 * withdrawals can be tried end to end on a paper install. The history shows it with a SIMULATED- hash.
 */
export async function creditSimulatedDeposit(
  deps: PlatformDeps,
  userId: string,
  token: 'USDT' | 'IFC' | 'IFX',
  amount: string,
): Promise<DepositRecord> {
  const account = ({ USDT: 'usdtToken', IFC: 'ifcToken', IFX: 'ifxToken' } as const)[token];
  return deps.db.transaction(async (tx) => {
    const txHash = `${SIMULATED_TX_PREFIX}${crypto.randomUUID()}`;
    const row = await repo.insertSimulatedDeposit(tx, {
      userId,
      token,
      amount: money(amount).toFixed(),
      txHash,
      createdAt: deps.clock.now(),
    });
    await ensureWallet(tx, userId, deps.platform.freeCredit);
    await applyChanges(tx, userId, [{ account, delta: row.amount }], 'deposit', row.id, deps.clock.now());
    return {
      id: row.id,
      token: row.token,
      amount: money(row.amount).toFixed(),
      transactionHash: row.txHash,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

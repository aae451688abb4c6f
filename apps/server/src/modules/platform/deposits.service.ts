import { depositAddresses, deposits } from '@gridbot/db';
import {
  type DepositListenData,
  type DepositRecord,
  platformMessages as m,
  money,
  type PlatformPage,
} from '@gridbot/shared';
import { count, desc, eq } from 'drizzle-orm';
import { createPublicClient, http, type PublicClient } from 'viem';
import { HttpError } from '../../lib/http-error';
import { depositAddressOf } from './deposit-address';
import { DepositWatcher } from './deposit-watcher';
import { offsetOf, toPage } from './paging';
import type { PlatformDeps } from './platform-deps';
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

function requireChain(chain: ChainRuntime | undefined): ChainRuntime {
  if (!chain) throw new HttpError(503, m.depositsNotConfigured);
  return chain;
}

/** Deposit History of the signed-in user (spec 02 Wallet Deposit), newest first. */
export async function listDeposits(
  deps: PlatformDeps,
  userId: string,
  input: ListPage,
): Promise<PlatformPage<DepositRecord>> {
  const where = eq(deposits.userId, userId);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(deposits)
      .where(where)
      .orderBy(desc(deposits.createdAt), desc(deposits.id))
      .limit(input.limit)
      .offset(offsetOf(input.page, input.limit)),
    deps.db.select({ n: count() }).from(deposits).where(where),
  ]);
  const records = rows.map((r) => ({
    id: r.id,
    token: r.token,
    amount: money(r.amount).toFixed(),
    transactionHash: r.txHash,
    createdAt: r.createdAt.toISOString(),
  }));
  return toPage(records, total?.n ?? 0, input.page, input.limit);
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
  await deps.db
    .update(depositAddresses)
    .set({ listenUntil: until })
    .where(eq(depositAddresses.userId, userId));
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

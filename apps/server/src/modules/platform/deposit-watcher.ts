import type { Tx } from '@gridbot/db';
import { money } from '@gridbot/shared';
import { type Address, erc20Abi, formatUnits, type Log, type PublicClient, parseAbiItem } from 'viem';
import type { ChainConfig } from '../../config/platform-config';
import type { PlatformDeps } from '../../config/platform-deps';
import { applyChanges, ensureWallet } from '../credit';
import {
  chainCursorBlock,
  depositAddressOwners,
  ensureChainCursor,
  insertChainDeposit,
  lockChainCursor,
  moveChainCursor,
} from './platform.repo';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
type Token = 'USDT' | 'IFC' | 'IFX';
const ACCOUNT = { USDT: 'usdtToken', IFC: 'ifcToken', IFX: 'ifxToken' } as const;
// Providers cap the size of a topic list; user addresses go to eth_getLogs in chunks of this many.
const ADDRESS_CHUNK = 200;

export interface CreditedDeposit {
  userId: string;
  token: Token;
  amount: string;
  txHash: string;
  logIndex: number;
}

/**
 * Credits BEP-20 deposits. Only blocks with at least `confirmations` confirmations are read,
 * so a reorganisation shallower than that never reaches a credited log; the cursor (last credited block)
 * moves in the same transaction as the credits, and (txHash, logIndex) is unique, so a restart or a second
 * watcher on the same database credits nothing twice.
 */
export class DepositWatcher {
  private running: Promise<CreditedDeposit[]> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly decimals = new Map<Token, number>();
  private chainKey: string | null = null;

  constructor(
    private readonly deps: PlatformDeps,
    private readonly chain: ChainConfig,
    private readonly client: PublicClient,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Polls every `pollMs` until stop(). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.scan().catch(this.onError);
    }, this.chain.pollMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One scan up to the confirmed head; concurrent callers share the scan in flight. */
  scan(): Promise<CreditedDeposit[]> {
    if (!this.running) {
      this.running = this.scanConfirmed().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async scanConfirmed(): Promise<CreditedDeposit[]> {
    const key = await this.key();
    // cacheTime 0: viem caches the block number for its polling interval, which would hide new blocks from a sync.
    const head = Number(await this.client.getBlockNumber({ cacheTime: 0 }));
    // A transfer in block b has head − b + 1 confirmations.
    const safe = head - (this.chain.confirmations - 1);
    if (safe < 0) return [];
    await ensureChainCursor(this.deps.db, key, (this.chain.startBlock ?? safe) - 1);
    const credited: CreditedDeposit[] = [];
    for (;;) {
      const from = ((await chainCursorBlock(this.deps.db, key)) ?? safe) + 1;
      if (from > safe) return credited;
      const to = Math.min(from + this.chain.maxBlockRange - 1, safe);
      const logs = await this.fetchLogs(from, to);
      const done = await this.deps.db.transaction(async (tx) => {
        // The row lock serialises watchers; one that lost the race leaves this range to the winner.
        if ((await lockChainCursor(tx, key)) !== from - 1) return null;
        const batch = await this.credit(tx, logs);
        await moveChainCursor(tx, key, to, this.deps.clock.now());
        return batch;
      });
      if (done) credited.push(...done);
    }
  }

  private async key(): Promise<string> {
    this.chainKey ??= `evm:${await this.client.getChainId()}`;
    return this.chainKey;
  }

  private async fetchLogs(from: number, to: number) {
    const rows = await depositAddressOwners(this.deps.db);
    const owners = new Map(rows.map((r) => [r.address.toLowerCase(), r.userId]));
    const found: { token: Token; userId: string; log: Log<bigint, number, false, typeof transferEvent> }[] =
      [];
    if (owners.size === 0) return found;
    const addresses = [...owners.keys()] as Address[];
    for (const [token, contract] of Object.entries(this.chain.tokens) as [Token, Address | undefined][]) {
      if (!contract) continue;
      for (let i = 0; i < addresses.length; i += ADDRESS_CHUNK) {
        const logs = await this.client.getLogs({
          address: contract,
          event: transferEvent,
          args: { to: addresses.slice(i, i + ADDRESS_CHUNK) },
          fromBlock: BigInt(from),
          toBlock: BigInt(to),
          strict: true,
        });
        for (const log of logs) {
          const userId = owners.get(log.args.to.toLowerCase());
          if (userId && !log.removed) found.push({ token, userId, log });
        }
      }
    }
    return found;
  }

  private async credit(tx: Tx, logs: Awaited<ReturnType<DepositWatcher['fetchLogs']>>) {
    const credited: CreditedDeposit[] = [];
    for (const { token, userId, log } of logs) {
      const { from, to, value } = log.args;
      if (!from || !to || !value) continue;
      const amount = money(formatUnits(value, await this.decimalsOf(token))).toFixed();
      const depositId = await insertChainDeposit(tx, {
        userId,
        token,
        amount,
        txHash: log.transactionHash.toLowerCase(),
        logIndex: log.logIndex,
        blockNumber: Number(log.blockNumber),
        blockHash: log.blockHash,
        fromAddress: from.toLowerCase(),
        toAddress: to.toLowerCase(),
      });
      if (!depositId) continue;
      await ensureWallet(tx, userId, this.deps.platform.freeCredit);
      await applyChanges(
        tx,
        userId,
        [{ account: ACCOUNT[token], delta: amount }],
        'deposit',
        depositId,
        this.deps.clock.now(),
      );
      credited.push({ userId, token, amount, txHash: log.transactionHash, logIndex: log.logIndex });
    }
    return credited;
  }

  private async decimalsOf(token: Token): Promise<number> {
    const known = this.decimals.get(token);
    if (known !== undefined) return known;
    const contract = this.chain.tokens[token];
    if (!contract) throw new Error(`no contract for ${token}`);
    const value = await this.client.readContract({
      address: contract,
      abi: erc20Abi,
      functionName: 'decimals',
    });
    this.decimals.set(token, Number(value));
    return Number(value);
  }
}

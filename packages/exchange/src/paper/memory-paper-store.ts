import { money } from '@gridbot/shared';
import type { WalletKind } from '../exchange-port';
import type {
  ApplyResult,
  LedgerEntry,
  OpenOrderFilter,
  PaperBalanceRow,
  PaperChange,
  PaperOrderRow,
  PaperPositionRow,
  PaperStore,
} from './paper-store';

interface AccountData {
  balances: Map<string, PaperBalanceRow>;
  orders: Map<string, PaperOrderRow>;
  positions: Map<string, PaperPositionRow>;
  leverage: Map<string, number>;
  ledger: LedgerEntry[];
}

const balanceKey = (wallet: WalletKind, asset: string) => `${wallet}:${asset}`;

/**
 * `PaperStore` in memory, for tests and for runs without a database. Each method completes without
 * awaiting in between, so every `apply` is atomic within the process. Returns copies, never live rows.
 */
export class MemoryPaperStore implements PaperStore {
  private readonly accounts = new Map<string, AccountData>();
  private ledgerSeq = 0;

  async ensureAccount(
    userId: string,
    funds: ReadonlyArray<{ wallet: WalletKind; asset: string; amount: string }>,
    tsMs: number,
  ): Promise<{ created: boolean }> {
    if (this.accounts.has(userId)) return { created: false };
    const account: AccountData = {
      balances: new Map(),
      orders: new Map(),
      positions: new Map(),
      leverage: new Map(),
      ledger: [],
    };
    this.accounts.set(userId, account);
    for (const fund of funds) {
      const key = balanceKey(fund.wallet, fund.asset);
      const row = account.balances.get(key) ?? {
        wallet: fund.wallet,
        asset: fund.asset,
        free: '0',
        locked: '0',
      };
      account.balances.set(key, { ...row, free: money(row.free).plus(fund.amount).toFixed() });
      account.ledger.push(this.entry(userId, fund.wallet, fund.asset, fund.amount, 'deposit', 'start', tsMs));
    }
    return { created: true };
  }

  async balances(userId: string): Promise<PaperBalanceRow[]> {
    return [...(this.accounts.get(userId)?.balances.values() ?? [])].map((row) => ({ ...row }));
  }

  async order(userId: string, clientOrderId: string): Promise<PaperOrderRow | undefined> {
    const row = this.accounts.get(userId)?.orders.get(clientOrderId);
    return row ? { ...row } : undefined;
  }

  async openOrders(filter: OpenOrderFilter = {}): Promise<PaperOrderRow[]> {
    const out: PaperOrderRow[] = [];
    for (const [userId, account] of this.accounts) {
      if (filter.userId !== undefined && filter.userId !== userId) continue;
      for (const row of account.orders.values()) {
        if (row.status !== 'NEW') continue;
        if (filter.market !== undefined && row.market !== filter.market) continue;
        if (filter.symbol !== undefined && row.symbol !== filter.symbol) continue;
        out.push({ ...row });
      }
    }
    return out.sort((a, b) => a.createdMs - b.createdMs);
  }

  async position(userId: string, symbol: string): Promise<PaperPositionRow | undefined> {
    const row = this.accounts.get(userId)?.positions.get(symbol);
    return row ? { ...row } : undefined;
  }

  async positions(filter: { userId?: string; symbol?: string } = {}): Promise<PaperPositionRow[]> {
    const out: PaperPositionRow[] = [];
    for (const [userId, account] of this.accounts) {
      if (filter.userId !== undefined && filter.userId !== userId) continue;
      for (const row of account.positions.values()) {
        if (filter.symbol === undefined || row.symbol === filter.symbol) out.push({ ...row });
      }
    }
    return out;
  }

  async leverage(userId: string, symbol: string): Promise<number | undefined> {
    return this.accounts.get(userId)?.leverage.get(symbol);
  }

  async setLeverage(userId: string, symbol: string, leverage: number): Promise<void> {
    this.account(userId).leverage.set(symbol, leverage);
  }

  async ledger(userId: string): Promise<LedgerEntry[]> {
    return (this.accounts.get(userId)?.ledger ?? []).map((row) => ({ ...row }));
  }

  async apply(change: PaperChange): Promise<ApplyResult> {
    const account = this.account(change.userId);
    if (
      change.once &&
      change.moves.some((move) => account.ledger.some((l) => l.kind === move.kind && l.refId === move.refId))
    )
      return { ok: false, reason: 'already_applied' };
    const order = change.order;
    if (order?.op === 'insert') {
      const existing = account.orders.get(order.row.clientOrderId);
      if (existing) return { ok: false, reason: 'duplicate_order', existing: { ...existing } };
    } else if (order?.op === 'update') {
      const current = account.orders.get(order.row.clientOrderId);
      if (!current || current.status !== order.expectStatus) return { ok: false, reason: 'conflict' };
    }
    const position = change.position;
    if (position) {
      const current = account.positions.get(position.symbol);
      if ((current?.version ?? null) !== position.expectVersion) return { ok: false, reason: 'conflict' };
    }
    const nextBalances = new Map<string, PaperBalanceRow>();
    for (const move of change.moves) {
      const key = balanceKey(move.wallet, move.asset);
      const row = nextBalances.get(key) ??
        account.balances.get(key) ?? { wallet: move.wallet, asset: move.asset, free: '0', locked: '0' };
      const free = money(row.free).plus(move.freeDelta);
      const locked = money(row.locked).plus(move.lockedDelta);
      if (free.isNegative() || locked.isNegative()) {
        return { ok: false, reason: 'insufficient_balance', wallet: move.wallet, asset: move.asset };
      }
      nextBalances.set(key, { ...row, free: free.toFixed(), locked: locked.toFixed() });
    }
    for (const [key, row] of nextBalances) account.balances.set(key, row);
    for (const move of change.moves) {
      const amount = money(move.freeDelta).plus(move.lockedDelta);
      if (amount.isZero() && !move.always) continue;
      account.ledger.push(
        this.entry(
          change.userId,
          move.wallet,
          move.asset,
          amount.toFixed(),
          move.kind,
          move.refId,
          change.tsMs,
        ),
      );
    }
    if (order) account.orders.set(order.row.clientOrderId, { ...order.row });
    if (position) {
      if (position.next) {
        account.positions.set(position.symbol, {
          ...position.next,
          version: (position.expectVersion ?? 0) + 1,
        });
      } else {
        account.positions.delete(position.symbol);
      }
    }
    return { ok: true };
  }

  private account(userId: string): AccountData {
    const account = this.accounts.get(userId);
    if (!account) throw new Error(`No paper account for user ${userId}`);
    return account;
  }

  private entry(
    userId: string,
    wallet: WalletKind,
    asset: string,
    amount: string,
    kind: LedgerEntry['kind'],
    refId: string,
    tsMs: number,
  ): LedgerEntry {
    this.ledgerSeq += 1;
    return { id: this.ledgerSeq, userId, wallet, asset, amount, kind, refId, tsMs };
  }
}

import { money } from '@gridbot/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PaperChange, PaperOrderRow, PaperStore } from '../paper/paper-store';

/** An open limit buy row for store tests. */
export function sampleOrder(
  userId: string,
  clientOrderId: string,
  overrides: Partial<PaperOrderRow> = {},
): PaperOrderRow {
  return {
    userId,
    market: 'spot',
    symbol: 'BTCUSDT',
    clientOrderId,
    exchangeOrderId: `ex-${clientOrderId}`,
    side: 'buy',
    type: 'limit',
    status: 'NEW',
    price: '40000',
    quantity: '0.01',
    filledQuantity: '0',
    filledQuote: '0',
    averagePrice: undefined,
    fee: '0',
    feeAsset: 'USDT',
    createdMs: 1,
    updatedMs: 1,
    leverage: undefined,
    reduceOnly: false,
    reservedAsset: 'USDT',
    reserved: '400.4',
    ...overrides,
  };
}

const usdt = (freeDelta: string, lockedDelta = '0', kind: 'buy' | 'fee' | 'transfer' = 'buy') => ({
  wallet: 'spot' as const,
  asset: 'USDT',
  freeDelta,
  lockedDelta,
  kind,
  refId: 'ref',
});

/**
 * Contract of the `PaperStore` port. `MemoryPaperStore` runs it here; the PostgreSQL/PGlite store in
 * packages/db runs the same suite: `paperStoreContract('SqlPaperStore', async () => new SqlPaperStore(db))`.
 */
export function paperStoreContract(name: string, makeStore: () => Promise<PaperStore>): void {
  describe(`PaperStore contract: ${name}`, () => {
    let store: PaperStore;
    const funds = [{ wallet: 'spot' as const, asset: 'USDT', amount: '10000' }];
    const balanceOf = async (userId: string, asset = 'USDT', wallet = 'spot') =>
      (await store.balances(userId)).find((b) => b.asset === asset && b.wallet === wallet);

    beforeEach(async () => {
      store = await makeStore();
    });

    it('creates an account once, with one deposit ledger row per fund, even when asked concurrently', async () => {
      const results = await Promise.all([1, 2, 3].map(() => store.ensureAccount('u1', funds, 5)));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(await balanceOf('u1')).toMatchObject({ free: '10000', locked: '0' });
      const ledger = await store.ledger('u1');
      expect(ledger).toHaveLength(1);
      expect(ledger[0]).toMatchObject({
        wallet: 'spot',
        asset: 'USDT',
        amount: '10000',
        kind: 'deposit',
        tsMs: 5,
      });
    });

    it('keeps decimal strings exact', async () => {
      await store.ensureAccount('u1', funds, 1);
      await store.apply({
        userId: 'u1',
        tsMs: 2,
        moves: [{ ...usdt('0.000000010000000001'), asset: 'BTC' }],
      });
      expect(money((await balanceOf('u1', 'BTC'))!.free).eq('0.000000010000000001')).toBe(true);
    });

    it('writes a ledger row per move that changes a total, none for a free→locked move', async () => {
      await store.ensureAccount('u1', funds, 1);
      const result = await store.apply({
        userId: 'u1',
        tsMs: 2,
        moves: [
          usdt('-100', '100'),
          usdt('-5', '0', 'fee'),
          { ...usdt('0'), kind: 'transfer', always: true },
        ],
      });
      expect(result).toEqual({ ok: true });
      expect(await balanceOf('u1')).toMatchObject({ free: '9895', locked: '100' });
      const ledger = await store.ledger('u1');
      expect(ledger.map((row) => [row.kind, money(row.amount).toNumber()])).toEqual([
        ['deposit', 10000],
        ['fee', -5],
        ['transfer', 0],
      ]);
      expect(ledger[1]!.id).toBeGreaterThan(ledger[0]!.id);
    });

    it('applies nothing when one balance would go negative', async () => {
      await store.ensureAccount('u1', funds, 1);
      const change: PaperChange = {
        userId: 'u1',
        tsMs: 2,
        moves: [usdt('-100'), { ...usdt('-1'), asset: 'BTC' }],
        order: { op: 'insert', row: sampleOrder('u1', 'o1') },
      };
      expect(await store.apply(change)).toEqual({
        ok: false,
        reason: 'insufficient_balance',
        wallet: 'spot',
        asset: 'BTC',
      });
      expect(await balanceOf('u1')).toMatchObject({ free: '10000' });
      expect(await store.ledger('u1')).toHaveLength(1);
      expect(await store.order('u1', 'o1')).toBeUndefined();
    });

    it('applies a once-only change once per kind and refId, also when sent again at the same time', async () => {
      await store.ensureAccount('u1', funds, 1);
      const payment = (amount: string): PaperChange => ({
        userId: 'u1',
        tsMs: 2,
        moves: [
          {
            wallet: 'future',
            asset: 'USDT',
            freeDelta: amount,
            lockedDelta: '0',
            kind: 'funding',
            refId: 'f-8h',
          },
        ],
        once: true,
      });
      // Three copies at once (two workers, say): one applies.
      const first = await Promise.all([1, 2, 3].map(() => store.apply(payment('1.5'))));
      expect(first.filter((result) => result.ok)).toHaveLength(1);
      expect(first.filter((result) => !result.ok)).toEqual([
        { ok: false, reason: 'already_applied' },
        { ok: false, reason: 'already_applied' },
      ]);
      expect(await store.apply(payment('1.5'))).toEqual({ ok: false, reason: 'already_applied' });
      expect(await balanceOf('u1', 'USDT', 'future')).toMatchObject({ free: '1.5' });
      // Another refId is another payment; a change that is not once-only applies every time.
      expect(
        await store.apply({ ...payment('-0.5'), moves: [{ ...payment('-0.5').moves[0]!, refId: 'f-16h' }] }),
      ).toEqual({ ok: true });
      expect(
        await store.apply({ ...payment('0.25'), once: undefined, moves: [usdt('0.25', '0', 'transfer')] }),
      ).toEqual({ ok: true });
      expect(
        await store.apply({ ...payment('0.25'), once: undefined, moves: [usdt('0.25', '0', 'transfer')] }),
      ).toEqual({ ok: true });
      expect(await balanceOf('u1', 'USDT', 'future')).toMatchObject({ free: '1' });
      expect((await store.ledger('u1')).filter((row) => row.kind === 'funding')).toHaveLength(2);
    });

    it('refuses a second order with the same client order id and returns the stored one', async () => {
      await store.ensureAccount('u1', funds, 1);
      expect(
        await store.apply({
          userId: 'u1',
          tsMs: 2,
          moves: [],
          order: { op: 'insert', row: sampleOrder('u1', 'o1') },
        }),
      ).toEqual({ ok: true });
      const again = await store.apply({
        userId: 'u1',
        tsMs: 3,
        moves: [usdt('-1')],
        order: { op: 'insert', row: sampleOrder('u1', 'o1', { price: '1' }) },
      });
      expect(again).toMatchObject({ ok: false, reason: 'duplicate_order', existing: { price: '40000' } });
      expect(await balanceOf('u1')).toMatchObject({ free: '10000' });
    });

    it('updates an order only from the expected status', async () => {
      await store.ensureAccount('u1', funds, 1);
      await store.apply({
        userId: 'u1',
        tsMs: 2,
        moves: [],
        order: { op: 'insert', row: sampleOrder('u1', 'o1') },
      });
      const filled = sampleOrder('u1', 'o1', { status: 'FILLED', filledQuantity: '0.01' });
      expect(
        await store.apply({
          userId: 'u1',
          tsMs: 3,
          moves: [],
          order: { op: 'update', row: filled, expectStatus: 'NEW' },
        }),
      ).toEqual({ ok: true });
      const late = sampleOrder('u1', 'o1', { status: 'CANCELED' });
      expect(
        await store.apply({
          userId: 'u1',
          tsMs: 4,
          moves: [usdt('1')],
          order: { op: 'update', row: late, expectStatus: 'NEW' },
        }),
      ).toEqual({ ok: false, reason: 'conflict' });
      expect((await store.order('u1', 'o1'))?.status).toBe('FILLED');
      expect(await balanceOf('u1')).toMatchObject({ free: '10000' });
      expect(await store.openOrders({ userId: 'u1' })).toEqual([]);
    });

    it('lists open orders of every user, filtered by user, market and symbol', async () => {
      await store.ensureAccount('u1', funds, 1);
      await store.ensureAccount('u2', funds, 1);
      await store.apply({
        userId: 'u1',
        tsMs: 2,
        moves: [],
        order: { op: 'insert', row: sampleOrder('u1', 'a') },
      });
      await store.apply({
        userId: 'u2',
        tsMs: 2,
        moves: [],
        order: { op: 'insert', row: sampleOrder('u2', 'b', { symbol: 'ETHUSDT' }) },
      });
      expect((await store.openOrders()).map((o) => o.clientOrderId).sort()).toEqual(['a', 'b']);
      expect((await store.openOrders({ userId: 'u2' })).map((o) => o.clientOrderId)).toEqual(['b']);
      expect(await store.openOrders({ symbol: 'BTCUSDT', market: 'future' })).toEqual([]);
    });

    it('versions positions: insert at 1, update from the read version, delete; stale writes conflict', async () => {
      await store.ensureAccount('u1', funds, 1);
      const row = {
        userId: 'u1',
        symbol: 'BTCUSDT',
        side: 'long' as const,
        quantity: '0.01',
        entryNotional: '500',
        isolatedMargin: '100',
        leverage: 5,
        maintMarginRate: 0.004,
        liquidationPrice: '40160.64257029',
        updatedMs: 2,
      };
      expect(
        await store.apply({
          userId: 'u1',
          tsMs: 2,
          moves: [],
          position: { symbol: 'BTCUSDT', expectVersion: null, next: row },
        }),
      ).toEqual({ ok: true });
      expect(await store.position('u1', 'BTCUSDT')).toMatchObject({ ...row, version: 1 });
      expect(
        await store.apply({
          userId: 'u1',
          tsMs: 3,
          moves: [],
          position: { symbol: 'BTCUSDT', expectVersion: null, next: row },
        }),
      ).toEqual({ ok: false, reason: 'conflict' });
      await store.apply({
        userId: 'u1',
        tsMs: 3,
        moves: [],
        position: { symbol: 'BTCUSDT', expectVersion: 1, next: { ...row, quantity: '0.02' } },
      });
      expect(await store.positions({ symbol: 'BTCUSDT' })).toMatchObject([{ quantity: '0.02', version: 2 }]);
      await store.apply({
        userId: 'u1',
        tsMs: 4,
        moves: [],
        position: { symbol: 'BTCUSDT', expectVersion: 2, next: null },
      });
      expect(await store.position('u1', 'BTCUSDT')).toBeUndefined();
    });

    it('keeps the side of a position: a short is stored as a short and a write may turn it into a long', async () => {
      await store.ensureAccount('u1', funds, 1);
      const short = {
        userId: 'u1',
        symbol: 'ETHUSDT',
        side: 'short' as const,
        quantity: '1.5',
        entryNotional: '3000',
        isolatedMargin: '600',
        leverage: 5,
        maintMarginRate: 0.005,
        liquidationPrice: '2388.05970149',
        updatedMs: 2,
      };
      await store.apply({
        userId: 'u1',
        tsMs: 2,
        moves: [],
        position: { symbol: 'ETHUSDT', expectVersion: null, next: short },
      });
      expect(await store.position('u1', 'ETHUSDT')).toMatchObject({ ...short, version: 1 });
      const long = {
        ...short,
        side: 'long' as const,
        quantity: '0.5',
        entryNotional: '1000',
        isolatedMargin: '200',
      };
      await store.apply({
        userId: 'u1',
        tsMs: 3,
        moves: [],
        position: { symbol: 'ETHUSDT', expectVersion: 1, next: long },
      });
      expect(await store.positions({ userId: 'u1' })).toMatchObject([
        { side: 'long', quantity: '0.5', version: 2 },
      ]);
    });

    it('keeps whether an order is reduce-only', async () => {
      await store.ensureAccount('u1', funds, 1);
      const order = sampleOrder('u1', 'ro-1', {
        market: 'future',
        side: 'sell',
        reduceOnly: true,
        reservedAsset: undefined,
        reserved: '0',
        leverage: 5,
      });
      await store.apply({ userId: 'u1', tsMs: 2, moves: [], order: { op: 'insert', row: order } });
      expect(await store.order('u1', 'ro-1')).toMatchObject({ reduceOnly: true });
      expect((await store.openOrders({ userId: 'u1' }))[0]).toMatchObject({ reduceOnly: true });
    });

    it('remembers the leverage chosen per symbol', async () => {
      await store.ensureAccount('u1', funds, 1);
      expect(await store.leverage('u1', 'BTCUSDT')).toBeUndefined();
      await store.setLeverage('u1', 'BTCUSDT', 7);
      expect(await store.leverage('u1', 'BTCUSDT')).toBe(7);
    });

    it('keeps every balance equal to the sum of its ledger rows', async () => {
      await store.ensureAccount('u1', funds, 1);
      await store.apply({
        userId: 'u1',
        tsMs: 2,
        moves: [usdt('-250.5'), { ...usdt('0.005'), asset: 'BTC' }, usdt('-0.2505', '0', 'fee')],
      });
      await store.apply({ userId: 'u1', tsMs: 3, moves: [usdt('-100', '100')] });
      for (const balance of await store.balances('u1')) {
        const sum = (await store.ledger('u1'))
          .filter((row) => row.wallet === balance.wallet && row.asset === balance.asset)
          .reduce((acc, row) => acc.plus(row.amount), money(0));
        expect(sum.eq(money(balance.free).plus(balance.locked))).toBe(true);
      }
    });
  });
}

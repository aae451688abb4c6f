import { floorToStep, type MarketRules, money } from '@gridbot/shared';
import { exchangeErrors } from '../exchange-error';
import {
  type AssetValue,
  type Balance,
  type ConvertResult,
  type Exchange,
  type FetchOrderResult,
  type ForcedClose,
  type FuturesPosition,
  isAllowedLeverage,
  type MarketKind,
  type Order,
  type PlaceOrderInput,
  type TransferDirection,
  type TransferResult,
  type WalletKind,
} from '../exchange-port';
import { prepareOrder } from '../order-rules';
import { entryPrice } from './futures-math';
import type { PaperExchange } from './paper-exchange';
import { releaseMoves, spotFillMoves } from './paper-fills';
import { placeOrderNow } from './paper-place-order';
import { paperId, publicOrder } from './paper-rows';
import type { PaperOrderRow, PaperPositionRow } from './paper-store';

/**
 * One user's `Exchange` on the paper exchange. Each call runs in the user's queue (serialised), but for the
 * look-up of an order, which waits only for what is queued on that order.
 */
export class PaperAccount implements Exchange {
  readonly venue = 'paper' as const;
  /** The paper exchange holds one-way positions that go short (paper-place-order.ts). */
  readonly opensShorts = true;

  constructor(
    private readonly ex: PaperExchange,
    readonly userId: string,
  ) {}

  async marketRules(symbol: string, market: MarketKind): Promise<MarketRules> {
    return this.ex.rules(symbol, market);
  }

  balances(wallet: WalletKind): Promise<Balance[]> {
    return this.run(async () => {
      const rows = (await this.ex.store.balances(this.userId)).filter((row) => row.wallet === wallet);
      const out = rows
        .filter((row) => row.asset === 'USDT' || !money(row.free).plus(row.locked).isZero())
        .map(({ asset, free, locked }) => ({ asset, free, locked }));
      if (!out.some((row) => row.asset === 'USDT')) out.unshift({ asset: 'USDT', free: '0', locked: '0' });
      return out.sort((a, b) =>
        a.asset === 'USDT' ? -1 : b.asset === 'USDT' ? 1 : a.asset.localeCompare(b.asset),
      );
    });
  }

  usdtFree(): Promise<Record<WalletKind, string>> {
    return this.run(async () => {
      const usdt = (await this.ex.store.balances(this.userId)).filter((row) => row.asset === 'USDT');
      const free = (wallet: WalletKind) => usdt.find((row) => row.wallet === wallet)?.free ?? '0';
      return { spot: free('spot'), future: free('future') };
    });
  }

  async spotAssets(): Promise<AssetValue[]> {
    const balances = await this.balances('spot');
    return balances
      .filter((b) => !money(b.free).plus(b.locked).isZero())
      .map((b) => {
        const total = money(b.free).plus(b.locked);
        const last = b.asset === 'USDT' ? '1' : this.ex.feed.lastPrice(`${b.asset}USDT`, 'spot');
        return {
          ...b,
          total: total.toFixed(),
          valueUsdt: last === undefined ? undefined : total.times(last).toFixed(),
        };
      });
  }

  placeOrder(input: PlaceOrderInput): Promise<Order> {
    return this.runOnOrder(input.clientOrderId, () =>
      placeOrderNow(this.ex, this.userId, { ...input, symbol: input.symbol.toUpperCase() }),
    );
  }

  /** Out of the user's queue: it waits only for what is queued on this order (`PaperExchange.lookUp`). */
  async fetchOrder(_market: MarketKind, _symbol: string, clientOrderId: string): Promise<FetchOrderResult> {
    const row = await this.ex.lookUp(this.userId, clientOrderId);
    return row ? { found: true, order: publicOrder(row) } : { found: false };
  }

  cancelOrder(_market: MarketKind, _symbol: string, clientOrderId: string): Promise<Order> {
    return this.runOnOrder(clientOrderId, async () => {
      const row = await this.ex.store.order(this.userId, clientOrderId);
      if (row?.status !== 'NEW') throw exchangeErrors.unknownOrder();
      const tsMs = this.ex.now();
      const next: PaperOrderRow = { ...row, status: 'CANCELED', reserved: '0', updatedMs: tsMs };
      await this.ex.mustApply({
        userId: this.userId,
        tsMs,
        moves: releaseMoves(row),
        order: { op: 'update', row: next, expectStatus: 'NEW' },
      });
      this.ex.track(next, undefined, this.userId, row.symbol);
      return publicOrder(next);
    });
  }

  openOrders(market: MarketKind, symbol?: string): Promise<Order[]> {
    return this.run(async () => {
      const filter = { userId: this.userId, market, ...(symbol ? { symbol: symbol.toUpperCase() } : {}) };
      return (await this.ex.store.openOrders(filter)).map(publicOrder);
    });
  }

  setLeverage(symbol: string, leverage: number): Promise<void> {
    const upper = symbol.toUpperCase();
    return this.run(async () => {
      const rules = this.ex.rules(upper, 'future');
      if (!isAllowedLeverage(leverage, rules.maxLeverage)) {
        throw exchangeErrors.invalidLeverage();
      }
      const position = await this.ex.store.position(this.userId, upper);
      if (position && leverage < position.leverage) {
        throw exchangeErrors.invalidParameter(
          'Leverage reduction is not supported in Isolated Margin Mode with open positions.',
        );
      }
      await this.ex.store.setLeverage(this.userId, upper, leverage);
    });
  }

  async position(symbol: string): Promise<FuturesPosition | undefined> {
    const upper = symbol.toUpperCase();
    const row = await this.run(() => this.ex.store.position(this.userId, upper));
    return row ? this.toPosition(row) : undefined;
  }

  async positions(): Promise<FuturesPosition[]> {
    const rows = await this.run(() => this.ex.store.positions({ userId: this.userId }));
    return rows.map((row) => this.toPosition(row));
  }

  /** None: the paper exchange never closes a position itself; the engine books liquidations on its price. */
  async forcedCloses(): Promise<ForcedClose[]> {
    return [];
  }

  transfer(direction: TransferDirection, amount: string): Promise<TransferResult> {
    return this.run(async () => {
      const value = money(amount);
      if (!value.isFinite() || value.lte(0) || value.decimalPlaces() > 8) {
        throw exchangeErrors.invalidParameter("Illegal value for parameter 'amount'.");
      }
      const [from, to]: [WalletKind, WalletKind] =
        direction === 'spot_to_future' ? ['spot', 'future'] : ['future', 'spot'];
      const tsMs = this.ex.now();
      const transferId = paperId('T', tsMs);
      const result = await this.ex.mustApply({
        userId: this.userId,
        tsMs,
        moves: [
          {
            wallet: from,
            asset: 'USDT',
            freeDelta: value.negated().toFixed(),
            lockedDelta: '0',
            kind: 'transfer',
            refId: transferId,
          },
          {
            wallet: to,
            asset: 'USDT',
            freeDelta: value.toFixed(),
            lockedDelta: '0',
            kind: 'transfer',
            refId: transferId,
          },
        ],
      });
      if (!result.ok) throw exchangeErrors.insufficientBalance();
      return { transferId, direction, asset: 'USDT', amount: value.toFixed() };
    });
  }

  convertToUsdt(asset: string, amount?: string): Promise<ConvertResult> {
    const upper = asset.toUpperCase();
    return this.run(async () => {
      if (upper === 'USDT') throw exchangeErrors.invalidParameter('USDT cannot be converted to USDT.');
      const symbol = `${upper}USDT`;
      const rules = this.ex.rules(symbol, 'spot');
      const held = (await this.ex.store.balances(this.userId)).find(
        (b) => b.wallet === 'spot' && b.asset === upper,
      );
      const wanted = amount ?? held?.free ?? '0';
      if (money(wanted).gt(held?.free ?? '0')) throw exchangeErrors.insufficientBalance();
      const price = money(await this.ex.feed.price(symbol, 'spot'));
      const tsMs = this.ex.now();
      const refId = paperId('C', tsMs);
      const qty = floorToStep(wanted, rules.stepSize);
      const { quantity } = prepareOrder(
        {
          market: 'spot',
          symbol,
          side: 'sell',
          type: 'market',
          clientOrderId: refId,
          quantity: qty.toFixed(),
        },
        rules,
        price,
      );
      const row = convertRow(this.userId, symbol, refId, quantity.toFixed(), tsMs);
      const { moves, fee } = spotFillMoves(row, quantity, price, this.ex.fees.spot, 'convert');
      const result = await this.ex.mustApply({ userId: this.userId, tsMs, moves });
      if (!result.ok) throw exchangeErrors.insufficientBalance();
      return {
        asset: upper,
        soldQuantity: quantity.toFixed(),
        usdtReceived: quantity.times(price).minus(fee).toFixed(),
        fee: fee.toFixed(),
        price: price.toFixed(),
      };
    });
  }

  private run<T>(fn: () => Promise<T>): Promise<T> {
    return this.ex.serial(this.userId, async () => {
      await this.ex.ensureAccount(this.userId);
      return fn();
    });
  }

  /** `run`, as the latest operation on one order: a look-up of that order waits for it. */
  private runOnOrder<T>(clientOrderId: string, fn: () => Promise<T>): Promise<T> {
    return this.ex.serialOnOrder(this.userId, clientOrderId, async () => {
      await this.ex.ensureAccount(this.userId);
      return fn();
    });
  }

  private toPosition(row: PaperPositionRow): FuturesPosition {
    const mark = this.ex.feed.lastPrice(row.symbol, 'future');
    return {
      symbol: row.symbol,
      side: row.side,
      quantity: row.quantity,
      entryPrice: entryPrice(row).toFixed(),
      leverage: row.leverage,
      marginType: 'isolated',
      isolatedMargin: row.isolatedMargin,
      liquidationPrice: row.liquidationPrice,
      markPrice: mark,
      unrealizedPnl: mark === undefined ? undefined : unrealizedPnl(row, mark),
    };
  }
}

/** A throw-away order row that lets a conversion reuse the spot fill moves (it is not stored). */
function convertRow(
  userId: string,
  symbol: string,
  refId: string,
  quantity: string,
  tsMs: number,
): PaperOrderRow {
  return {
    userId,
    market: 'spot',
    symbol,
    clientOrderId: refId,
    exchangeOrderId: refId,
    side: 'sell',
    type: 'market',
    status: 'NEW',
    price: undefined,
    quantity,
    filledQuantity: '0',
    filledQuote: '0',
    averagePrice: undefined,
    fee: '0',
    feeAsset: 'USDT',
    createdMs: tsMs,
    updatedMs: tsMs,
    leverage: undefined,
    reduceOnly: false,
    reservedAsset: undefined,
    reserved: '0',
  };
}

/** Unrealized PnL at `mark`: a long's value less its cost, a short's cost less its value. */
function unrealizedPnl(row: PaperPositionRow, mark: string): string {
  const value = money(row.quantity).times(mark);
  return (
    row.side === 'long' ? value.minus(row.entryNotional) : money(row.entryNotional).minus(value)
  ).toFixed();
}

/**
 * The spot-wallet views and the swap to USDT, the same on every ccxt venue: built on the port's own
 * `balances`, `marketRules` and `placeOrder` of the adapter, plus its last-price read.
 */
import { floorToStep, money } from '@gridbot/shared';
import { exchangeErrors } from '../exchange-error';
import type { AssetValue, Balance, ConvertResult, Exchange, WalletKind } from '../exchange-port';

/** Free USDT of both wallets, read together. */
export async function usdtFreeOf(exchange: Pick<Exchange, 'balances'>): Promise<Record<WalletKind, string>> {
  const [spot, future] = await Promise.all([exchange.balances('spot'), exchange.balances('future')]);
  const free = (balances: Balance[]) => balances.find((b) => b.asset === 'USDT')?.free ?? '0';
  return { spot: free(spot), future: free(future) };
}

/** Non-zero spot assets valued at their USDT pair's last price (undefined where there is none). */
export async function valuedSpotAssets(
  exchange: Pick<Exchange, 'balances'>,
  lastPrice: (symbol: string) => Promise<string>,
): Promise<AssetValue[]> {
  const held = (await exchange.balances('spot')).filter((b) => !money(b.free).plus(b.locked).isZero());
  const out: AssetValue[] = [];
  for (const b of held) {
    const total = money(b.free).plus(b.locked);
    const price = b.asset === 'USDT' ? '1' : await lastPrice(`${b.asset}USDT`).catch(() => undefined);
    out.push({
      ...b,
      total: total.toFixed(),
      valueUsdt: price === undefined ? undefined : total.times(price).toFixed(),
    });
  }
  return out;
}

/** Sells `amount` (default: all free) of a spot asset at market, rounded down to the step. */
export async function sellToUsdt(
  exchange: Pick<Exchange, 'balances' | 'marketRules' | 'placeOrder'>,
  asset: string,
  amount: string | undefined,
): Promise<ConvertResult> {
  const upper = asset.toUpperCase();
  if (upper === 'USDT') throw exchangeErrors.invalidParameter('USDT cannot be converted to USDT.');
  const symbol = `${upper}USDT`;
  const rules = await exchange.marketRules(symbol, 'spot');
  const held = (await exchange.balances('spot')).find((b) => b.asset === upper)?.free ?? '0';
  const wanted = amount ?? held;
  if (money(wanted).gt(held)) throw exchangeErrors.insufficientBalance();
  const order = await exchange.placeOrder({
    market: 'spot',
    symbol,
    side: 'sell',
    type: 'market',
    clientOrderId: `cvt-${upper}-${Date.now()}`,
    quantity: floorToStep(wanted, rules.stepSize).toFixed(),
  });
  return {
    asset: upper,
    soldQuantity: order.filledQuantity,
    usdtReceived: money(order.filledQuote)
      .minus(order.feeAsset === 'USDT' ? order.fee : 0)
      .toFixed(),
    fee: order.fee,
    price: order.averagePrice ?? '0',
  };
}

import { floorToStep, type MarketRules, type Money, money, roundToTick } from '@gridbot/shared';
import { exchangeErrors } from './exchange-error';
import type { PlaceOrderInput } from './exchange-port';

/** Binance's allowed client order id: 1–36 of `.A-Za-z0-9:/_-`. */
const CLIENT_ORDER_ID = /^[.A-Za-z0-9:/_-]{1,36}$/;

export interface PreparedOrder {
  /** Quantity rounded down to the step size. */
  quantity: Money;
  /** Limit price rounded to the tick size; undefined for market orders. */
  price: Money | undefined;
  /** Price the notional was checked at: the limit price, or the reference (last) price for market orders. */
  checkPrice: Money;
}

/**
 * Rounds an order to the market rules and checks Binance's filters, in Binance's order: PRICE_FILTER,
 * LOT_SIZE, NOTIONAL (docs/trading-rules.md §2.1). Both the paper exchange and the Binance adapter call it before an
 * order goes anywhere, so they reject the same orders with the same code and message.
 */
export function prepareOrder(
  input: PlaceOrderInput,
  rules: MarketRules,
  referencePrice: Money,
): PreparedOrder {
  if (!CLIENT_ORDER_ID.test(input.clientOrderId)) {
    throw exchangeErrors.invalidParameter(
      "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'.",
    );
  }
  let price: Money | undefined;
  if (input.type === 'limit') {
    if (input.price === undefined)
      throw exchangeErrors.invalidParameter("Mandatory parameter 'price' was not sent.");
    price = roundToTick(positive(input.price, 'price'), rules.tickSize);
    if (price.lte(0)) throw exchangeErrors.filter('PRICE_FILTER');
  }
  const checkPrice = price ?? referencePrice;
  let quantity: Money;
  if (input.quantity !== undefined) {
    quantity = floorToStep(positive(input.quantity, 'quantity'), rules.stepSize);
  } else if (input.quoteAmount !== undefined && input.type === 'market' && input.side === 'buy') {
    quantity = floorToStep(
      positive(input.quoteAmount, 'quoteOrderQty').dividedBy(checkPrice),
      rules.stepSize,
    );
  } else {
    throw exchangeErrors.invalidParameter("Param 'quantity' or 'quoteOrderQty' must be sent.");
  }
  if (quantity.lt(rules.minQty)) throw exchangeErrors.filter('LOT_SIZE');
  // A reduce-only futures order is exempt from the minimum notional (Binance -4164 "… unless you choose
  // reduce only"): an exit of a small remainder always goes out (docs/trading-rules.md §3).
  const exempt = input.market === 'future' && input.reduceOnly === true;
  if (!exempt && quantity.times(checkPrice).lt(rules.minNotional)) throw exchangeErrors.filter('NOTIONAL');
  return { quantity, price, checkPrice };
}

function positive(value: string, name: string): Money {
  let parsed: Money;
  try {
    parsed = money(value);
  } catch (error) {
    throw exchangeErrors.invalidParameter(`Illegal value for parameter '${name}'.`, error);
  }
  if (!parsed.isFinite() || parsed.lte(0))
    throw exchangeErrors.invalidParameter(`Illegal value for parameter '${name}'.`);
  return parsed;
}

/** Decimal as a plain string without exponent ('0.00000001', never '1e-8'). */
export function decimalString(value: Money): string {
  return value.toFixed();
}

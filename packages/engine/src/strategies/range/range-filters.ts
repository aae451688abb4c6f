/**
 * A live range grid against its exchange's order filters (docs/trading-rules.md §2.6, "Live (Binance)"): the
 * orders it rests at the start must fit the symbol's MAX_NUM_ORDERS and the percent-price filter
 * (PERCENT_PRICE_BY_SIDE on spot, PERCENT_PRICE on futures), or the exchange refuses them one by one.
 */
import type { MarketKind, MarketRules, RangeStrategy } from '@gridbot/shared';
import { Money, money } from '../../money';
import { levelPrice, levelSpec, nearestLevel } from './range-levels';

type FilterRules = Pick<MarketRules, 'symbol' | 'tickSize' | 'maxNumOrders' | 'percentPrice'>;

const pctOf = (multiplier: string) => money(multiplier).times(100).toDecimalPlaces(4).toString();

/**
 * Why the exchange's filters refuse this grid at `p0` (the price its orders are placed at: the trigger, or the
 * last price), empty when they do not or when the rules carry no filters (the paper exchange). The grid rests
 * `grids` orders (every level but the one nearest `p0`): buys below, sells above, in every direction.
 */
export function rangeFilterProblems(
  s: Pick<RangeStrategy, 'lower' | 'upper' | 'grids' | 'mode'>,
  p0: number,
  rules: FilterRules,
  market: MarketKind,
): string[] {
  const problems: string[] = [];
  const max = rules.maxNumOrders;
  if (max !== undefined && s.grids > max)
    problems.push(
      `the grid rests ${s.grids} orders on ${rules.symbol} at once, more than the ${max} open orders Binance allows on the symbol (MAX_NUM_ORDERS): use at most ${max} grids`,
    );
  const rule = rules.percentPrice;
  if (rule === undefined) return problems;
  const filter = market === 'spot' ? 'PERCENT_PRICE_BY_SIDE' : 'PERCENT_PRICE';
  const spec = levelSpec(s, rules.tickSize);
  const nearest = nearestLevel(spec, 0, s.grids, p0);
  const ref = money(p0);
  const bound = (multiplier: string, dir: 'up' | 'down') =>
    ref
      .times(multiplier)
      .dividedBy(rules.tickSize)
      .toDecimalPlaces(0, dir === 'up' ? Money.ROUND_CEIL : Money.ROUND_FLOOR)
      .times(rules.tickSize);
  const at = `for ${rules.symbol} at ${p0} (${filter})`;
  if (nearest > 0) {
    const lowest = levelPrice(spec, 0);
    const highest = levelPrice(spec, nearest - 1);
    if (money(lowest).lt(ref.times(rule.bidDown))) {
      const floor = bound(rule.bidDown, 'up');
      problems.push(
        `the lowest buy at ${lowest} is below ${floor.toString()}, the lowest buy price Binance accepts ${at}, ${pctOf(rule.bidDown)}% of the price: raise the lower price to at least ${floor.toString()}`,
      );
    }
    if (!money(rule.bidUp).isZero() && money(highest).gt(ref.times(rule.bidUp)))
      problems.push(
        `the buy at ${highest} is above ${bound(rule.bidUp, 'down').toString()}, the highest buy price Binance accepts ${at}`,
      );
  }
  if (nearest < s.grids) {
    const lowest = levelPrice(spec, nearest + 1);
    const highest = levelPrice(spec, s.grids);
    if (!money(rule.askUp).isZero() && money(highest).gt(ref.times(rule.askUp))) {
      const cap = bound(rule.askUp, 'down');
      problems.push(
        `the highest sell at ${highest} is above ${cap.toString()}, the highest sell price Binance accepts ${at}, ${pctOf(rule.askUp)}% of the price: lower the upper price to at most ${cap.toString()}`,
      );
    }
    if (money(lowest).lt(ref.times(rule.askDown)))
      problems.push(
        `the sell at ${lowest} is below ${bound(rule.askDown, 'up').toString()}, the lowest sell price Binance accepts ${at}`,
      );
  }
  return problems;
}

import type { Exchange, FuturesPosition } from '@gridbot/exchange';
import {
  positionMessages as m,
  type PositionBot,
  type PositionView,
  positionTradedByBotMessage,
} from '@gridbot/shared';
import type { AppDeps } from '../../app/deps';
import { HttpError } from '../../lib/http-error';
import { botLabel } from '../bots';
import { userExchange } from '../exchange';
import { asUserError } from './exchange-refusal';
import { type FuturesBotRow, futuresBotsOn, markPositionClosed } from './positions.repo';

const RUNNING = new Set(['Live', 'Pause', 'Stopping']);

/**
 * A position in a stored engine state: a Multigrid or Scalping bot's open lots, a range grid's futures
 * position. A bot stopped without a sale keeps it until that position is closed here (the state stays as the
 * bot left it, the position is gone).
 */
const holdsLots = (bot: FuturesBotRow) => {
  const state = bot.engineState as { lots?: unknown[]; futures?: { pos?: number } | null } | null;
  const held = (state?.lots?.length ?? 0) > 0 || (state?.futures?.pos ?? 0) !== 0;
  return !bot.positionClosedAt && held;
};

/**
 * Whose position it is: the running futures bot on the pair, else the newest bot stopped without selling
 * whose lots are still open; otherwise nobody's ("no bot": opened outside the platform, or left after a
 * bot's lots were written off).
 */
function ownerOf(symbol: string, botsNewestFirst: readonly FuturesBotRow[]): FuturesBotRow | undefined {
  const onPair = botsNewestFirst.filter((b) => b.symbol === symbol && b.botType !== 'cycle');
  return (
    onPair.find((b) => RUNNING.has(b.status)) ?? onPair.find((b) => b.status === 'Stopped' && holdsLots(b))
  );
}

const asBot = (bot: FuturesBotRow): PositionBot => ({
  botId: bot.id,
  name: botLabel(bot),
  status: bot.status,
});

function toView(position: FuturesPosition, owner: FuturesBotRow | undefined): PositionView {
  return {
    symbol: position.symbol,
    side: position.side,
    quantity: position.quantity,
    entryPrice: position.entryPrice,
    markPrice: position.markPrice ?? null,
    leverage: position.leverage,
    margin: position.isolatedMargin,
    liquidationPrice: position.liquidationPrice,
    unrealizedPnl: position.unrealizedPnl ?? null,
    bot: owner ? asBot(owner) : null,
  };
}

/** Every open futures position of the user's exchange account, each with the bot it belongs to. */
export async function listPositions(
  deps: AppDeps,
  userId: string,
  exchange: Exchange,
): Promise<PositionView[]> {
  const positions = await exchange.positions();
  const owners = await futuresBotsOn(
    deps.db,
    userId,
    positions.map((p) => p.symbol),
  );
  return positions
    .map((p) => toView(p, ownerOf(p.symbol, owners)))
    .sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/**
 * Closes the whole position of a pair with a reduce-only market order against it (a sell for a long, a buy for
 * a short): reduce-only, so it can never open or flip a position (docs/trading-rules.md §2.2). A running bot's position is refused: the bot would keep lots the
 * exchange no longer holds; stopping it with a sale books the close on the bot. One step of the account's
 * queue (docs/security.md "One account, one queue"), so a bot cannot start on the pair meanwhile.
 */
export async function closePosition(deps: AppDeps, userId: string, symbol: string) {
  const exchange = await userExchange(deps, userId);
  return deps.state.accounts.run(userId, async (conn) => {
    const onPair = (await futuresBotsOn(conn, userId, [symbol])).filter((b) => b.botType !== 'cycle');
    const running = onPair.find((b) => RUNNING.has(b.status));
    if (running) throw new HttpError(409, positionTradedByBotMessage(symbol, botLabel(running)));
    const position = await exchange.position(symbol);
    if (!position) throw new HttpError(404, m.noPosition);
    try {
      const order = await exchange.placeOrder({
        market: 'future',
        symbol,
        side: position.side === 'short' ? 'buy' : 'sell',
        type: 'market',
        // Not a bot's order, so not bot id + sequence; unique per account and within Binance's 36 characters.
        clientOrderId: `close-${symbol}-${deps.clock.now().getTime()}`,
        quantity: position.quantity,
        reduceOnly: true,
      });
      // The History then shows the bots whose position this was as closed, at the close's price.
      const leftOpen = onPair.filter((b) => b.status === 'Stopped' && holdsLots(b)).map((b) => b.id);
      await markPositionClosed(conn, userId, symbol, leftOpen, {
        at: deps.clock.now(),
        price: order.averagePrice ?? null,
      });
      return {
        success: true,
        message: m.positionClosed,
        order: { quantity: order.filledQuantity, averagePrice: order.averagePrice ?? null },
      };
    } catch (error) {
      throw asUserError(error, m.closeFailed);
    }
  });
}

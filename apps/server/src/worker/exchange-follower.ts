import { dropMissingLots, type Intent, liquidatedByExchange, rebuyMissing } from '@gridbot/engine';
import type { ForcedClose } from '@gridbot/exchange';
import { type Money, missingCoinsReason, missingCoinsUnsettled, money } from '@gridbot/shared';
import { botCommandSchema } from '../modules/bots';
import { isLiveVenue } from '../modules/exchange';
import type { BotContext, BotLifecycle } from './bot-context';
import { type CommandRow, finishCommand } from './commands.repo';
import { saveCommandApplied } from './runtime-writes';

/** How often a Binance futures bot compares its lots with the exchange's position. */
const POSITION_CHECK_MS = 60_000;
/** Force orders are read from a little before the bot's oldest lot, so clock skew never hides one. */
const FORCE_ORDER_SLACK_MS = 60_000;
/** While the feed stays at or below the engine's liquidation price, the position is read at most this often. */
const LIQUIDATION_WATCH_MS = 2_000;

/** What the follower asks of the order tracker. */
export interface IntentSender {
  send(intents: readonly Intent[], price: number): Promise<void>;
  withdraw(intent: Intent, reason: string): Promise<void>;
}

/**
 * Keeps a bot equal to what the exchange holds (docs/trading-rules.md §3: the exchange is the authority on
 * positions): the spot coin of the bot against its lots, the futures position against its lots (a forced
 * close by the exchange booked with the exchange's figures), and the user's answer to coins sold outside
 * the platform (bought again or dropped from the lots).
 */
export class ExchangeFollower {
  private positionTimer: NodeJS.Timeout | undefined;
  private followingExchange = false;
  private liquidationWatchedAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: BotContext,
    private readonly lifecycle: BotLifecycle,
    private readonly tracker: IntentSender,
  ) {
    const { id, deps } = ctx;
    if (id.market === 'future' && isLiveVenue(deps.exchange.venue)) {
      this.positionTimer = setInterval(() => void this.checkPosition(), POSITION_CHECK_MS);
      this.positionTimer.unref();
    }
    if (id.market === 'spot' && deps.liveRules) {
      this.positionTimer = setInterval(() => void this.checkHoldings(), POSITION_CHECK_MS);
      this.positionTimer.unref();
    }
  }

  stopTimers(): void {
    clearInterval(this.positionTimer);
  }

  /**
   * A spot bot on Binance compares its lots with the coin the account holds (on a timer). Coins the user
   * sold outside the platform leave lots the bot can never sell: the bot is paused with the reason shown,
   * before a take-profit is refused for lack of balance (docs/trading-rules.md §3).
   */
  checkHoldings(): Promise<void> {
    return this.lifecycle.serial(async () => {
      if (this.ctx.finished || this.ctx.id.market !== 'spot') return;
      if (this.ctx.state.lots.length === 0 || this.ctx.state.pending.length > 0) return;
      const balances = await this.ctx.deps.exchange.balances('spot').catch(() => null);
      if (balances === null) return; // no answer: ask on the next round
      const coin = balances.find((b) => b.asset === this.ctx.id.baseAsset);
      const held = coin ? money(coin.free).plus(coin.locked) : money(0);
      const lots = this.ctx.state.lots.reduce((sum, lot) => sum.plus(lot.qty), money(0));
      if (held.gte(lots)) return;
      const holder = this.ctx.state.kind === 'cycle' ? 'cycle' : 'bot';
      await this.lifecycle.halt(
        missingCoinsReason(held.toFixed(), lots.toFixed(), this.ctx.id.baseAsset, holder),
      );
    });
  }

  /** The coin of the bot the exchange account holds (free and locked); null when it does not answer. */
  private async heldCoin(): Promise<Money | null> {
    const balances = await this.ctx.deps.exchange.balances('spot').catch(() => null);
    if (balances === null) return null;
    const coin = balances.find((b) => b.asset === this.ctx.id.baseAsset);
    return coin ? money(coin.free).plus(coin.locked) : money(0);
  }

  /**
   * The user's answer on Resume to coins sold outside the platform (docs/trading-rules.md §3): the missing
   * quantity is bought again at market through the ordinary intent path, or dropped from the lots and booked
   * at the last price. Either way the lots then equal the coin the account holds.
   */
  async resolveMissingLots(command: CommandRow): Promise<void> {
    const { choice } = botCommandSchema.parse({ ...command.payload, type: command.type }) as {
      choice: 'rebuy' | 'drop';
    };
    if (this.ctx.state.pending.length > 0) {
      await finishCommand(
        this.ctx.deps.db,
        command.id,
        new Date(this.ctx.deps.now()),
        'missing lots are settled with no order under way',
      );
      return;
    }
    const held = await this.heldCoin();
    const price = this.ctx.lastPrice;
    if (held === null || price === null) {
      // Trading on would sell coins the account lacks: paused again, and Resume asks again.
      await finishCommand(this.ctx.deps.db, command.id, new Date(this.ctx.deps.now()), missingCoinsUnsettled);
      return this.lifecycle.halt(missingCoinsUnsettled);
    }
    if (choice === 'drop') {
      const dropped = dropMissingLots(this.ctx.state, held.toFixed(), price, this.ctx.deps.now());
      this.ctx.state = dropped.state;
      const pnl = dropped.closed.reduce((sum, lot) => sum.plus(lot.profit), money(0));
      await saveCommandApplied(
        this.ctx.deps.writes,
        this.ctx.id.botId,
        command.id,
        this.ctx.state,
        price,
        false,
        {
          userId: this.ctx.id.userId,
          pnl: pnl.toFixed(8),
        },
      );
      return;
    }
    const rebuy = rebuyMissing(this.ctx.state, held.toFixed(), price, this.ctx.rules);
    this.ctx.state = rebuy.state;
    // A re-buy under way leaves the command applied: it is done when the buy is booked (`applyFill`), or
    // failed with the pause that follows a refusal (`fail`), so Resume answers with what happened.
    const awaitsBuy = rebuy.intent !== null;
    await saveCommandApplied(
      this.ctx.deps.writes,
      this.ctx.id.botId,
      command.id,
      this.ctx.state,
      price,
      awaitsBuy,
    );
    if (rebuy.intent) await this.tracker.send([rebuy.intent], price);
  }

  /**
   * Whether the bot is to read the exchange's position before stepping on `price`: the feed reached the
   * engine's liquidation price of a bot whose liquidations only the exchange books (Binance). A warning, not
   * a close: the exchange liquidates on its own mark price, so the bot asks it first (at most every few
   * seconds while the feed stays there), lest it buy on lots the exchange already closed.
   */
  asksBeforeStep(price: number): boolean {
    const { state, rules } = this.ctx;
    if (!rules.liquidationFromExchange || state.lots.length === 0 || price > state.account.liqPrice)
      return false;
    const now = this.ctx.deps.now();
    if (now - this.liquidationWatchedAtMs < LIQUIDATION_WATCH_MS) return false;
    this.liquidationWatchedAtMs = now;
    this.ctx.deps.log('price at the engine’s liquidation level: asking the exchange', {
      botId: this.ctx.id.botId,
      price,
      liqPrice: state.account.liqPrice,
    });
    return true;
  }

  /**
   * Reads the exchange's position of a futures bot (after each order and on a timer, Binance only) and
   * reconciles the bot when the exchange closed or liquidated it.
   */
  checkPosition(): Promise<void> {
    return this.lifecycle.serial(() => this.checkPositionNow());
  }

  /** `checkPosition` inside a task of the bot's queue. */
  async checkPositionNow(): Promise<void> {
    if (this.ctx.finished || this.ctx.id.market !== 'future' || !isLiveVenue(this.ctx.deps.exchange.venue))
      return;
    if (this.ctx.state.lots.length === 0 || this.ctx.state.pending.length > 0) return;
    const position = await this.ctx.deps.exchange.position(this.ctx.id.symbol).catch(() => null);
    if (position === null) return; // no answer: ask on the next round
    const held = this.ctx.state.lots.reduce((sum, lot) => sum.plus(lot.qty), money(0));
    if (position && money(position.quantity).gte(held)) return;
    await this.followExchangePosition(position === undefined);
  }

  /**
   * A reduce-only exit was refused as not reducing the position: the exchange may no longer hold it (docs/trading-rules.md §3: the
   * exchange is the authority on positions). Answers false when it still holds what the exit sells (an
   * ordinary refusal). Otherwise the exit is withdrawn, with the exchange's words for the refusal (`refusal`)
   * and why, and the bot follows the exchange: true.
   */
  async positionGone(intent: Extract<Intent, { type: 'SellLots' }>, refusal: string): Promise<boolean> {
    if (this.ctx.id.market !== 'future') return false;
    const position = await this.ctx.deps.exchange.position(this.ctx.id.symbol);
    if (position && money(position.quantity).gte(intent.qty)) return false;
    // The refusal's sentence goes on with the reason: its closing full stop gives way to a colon.
    await this.tracker.withdraw(intent, `${refusal.replace(/\.$/, '')}: the exchange holds no such position`);
    // Decisions taken together with this exit (a new grid 1 on the emptied stack) were taken on lots the
    // exchange no longer holds: they are withdrawn too, never sent.
    for (const seq of [...this.ctx.unsent]) {
      const pending = this.ctx.state.pending.find((p) => p.intent.seq === seq);
      this.ctx.unsent.delete(seq);
      if (pending) await this.tracker.withdraw(pending.intent, 'not sent: the exchange closed the position');
    }
    await this.followExchangePosition(position === undefined);
    return true;
  }

  /**
   * The exchange holds less than the bot's lots. On Binance, a position the exchange closed itself (a
   * force order: liquidation or auto-deleveraging) is booked with the exchange's figures and stops the bot
   * with reason `liquidated` (docs/trading-rules.md §3). On the paper exchange, flat with a liquidation price
   * on the bot, the engine books the liquidation the way it does on a price. Anything else (closed outside
   * the bot) halts with the reason shown.
   */
  private async followExchangePosition(flat: boolean): Promise<void> {
    if (flat && isLiveVenue(this.ctx.deps.exchange.venue)) {
      const since = Math.min(...this.ctx.state.lots.map((lot) => lot.timeMs)) - FORCE_ORDER_SLACK_MS;
      const closes = await this.ctx.deps.exchange.forcedCloses(this.ctx.id.symbol, since).catch(() => null);
      if (closes === null) return; // no answer: asked again on the next check
      const close = closes.at(-1);
      if (close) return this.bookExchangeClose(close);
    }
    const liq = this.ctx.state.account.liqPrice;
    // Once only: should the engine answer the liquidation tick with an exit (a stoploss above the
    // liquidation price), that exit is refused too and the bot halts instead of looping.
    if (flat && liq > 0 && this.ctx.deps.exchange.venue === 'paper' && !this.followingExchange) {
      this.followingExchange = true;
      try {
        // Just below the level, so the engine's risk exit (checked first) is what the tick triggers.
        await this.lifecycle.stepAndExecute(liq * (1 - 1e-9), this.ctx.deps.now());
      } finally {
        this.followingExchange = false;
      }
      return;
    }
    await this.lifecycle.halt(
      'The exchange no longer holds this bot’s futures position (closed outside the bot).',
    );
  }

  /** Books the exchange's own close of the position (its trades' price, realized PnL and fee) and stops. */
  private async bookExchangeClose(close: ForcedClose): Promise<void> {
    const price = Number(close.averagePrice);
    const { state, intent } = liquidatedByExchange(this.ctx.state, {
      price,
      realizedPnl: close.realizedPnl,
      fee: close.fee,
    });
    if (intent === null) return;
    this.ctx.deps.log('position closed by the exchange', {
      botId: this.ctx.id.botId,
      orderId: close.exchangeOrderId,
      reason: close.reason,
    });
    this.ctx.state = state;
    await this.tracker.send([intent], this.ctx.lastPrice ?? price);
  }
}

import { applyFunding, type EngineState, fundingPayment } from '@gridbot/engine';
import type { BotIdentity, BotLifecycle, BotRunnerDeps } from './bot-context';
import type { RuntimeState } from './bot-status';
import { bookedFunding, saveFundedThrough } from './funding.repo';
import { saveFunding } from './runtime-writes';

/** A funding time that came due and its rate, undefined when the feed has none for it. */
export interface DueFunding {
  fundingTimeMs: number;
  rate: number | undefined;
}

/** What funding booking reads and replaces of a running bot (a grid bot's context, a range grid's runner). */
export interface FundedBot<S extends RuntimeState> {
  readonly id: BotIdentity;
  readonly deps: BotRunnerDeps;
  readonly finished: boolean;
  readonly lastPrice: number | null;
  state: S;
}

/**
 * The bot's state after one funding payment at mark price `price` and `rate` booked at `timeMs`, the size of
 * its position and the amount it received (> 0) or paid (< 0); 0 when it holds none.
 */
export type FundPosition<S extends RuntimeState> = (
  state: S,
  price: number,
  rate: number,
  timeMs: number,
) => { state: S; qty: number; amount: number };

/** A grid bot's or cycle's long: its size is what it holds (docs/trading-rules.md §2.2). */
export const fundGridBot: FundPosition<EngineState> = (state, price, rate, timeMs) => {
  const qty = state.account.posQty ?? state.account.openQty;
  const amount = fundingPayment(qty, price, rate);
  return { state: amount === 0 ? state : applyFunding(state, amount, timeMs), qty, amount };
};

/** Books the funding payments of a paper futures bot, each funding time once (docs/trading-rules.md §2.2). */
export class FundingBooking<S extends RuntimeState> {
  constructor(
    private readonly bot: FundedBot<S>,
    private readonly lifecycle: Pick<BotLifecycle, 'serial'>,
    private readonly fund: FundPosition<S>,
  ) {}

  /**
   * Funding times the paper futures bot's feed passed, oldest first, each with its rate (undefined: the feed
   * has none, nothing is due), and `settledMs`, the funding time the bot has settled once they are booked
   * (docs/trading-rules.md §2.2). At each, an open position pays (rate > 0) or receives its notional at
   * `price` × `rate`, booked once on the bot and as an Order Book row.
   */
  onFunding(due: readonly DueFunding[], price: number, settledMs: number): Promise<void> {
    return this.lifecycle.serial(async () => {
      if (this.bot.finished || this.bot.id.market !== 'future') return;
      for (const { fundingTimeMs, rate } of due) {
        if (rate !== undefined) await this.bookFunding(fundingTimeMs, rate, price);
      }
      // After the bookings: a crash in between leaves times due again, which their keys book only once.
      await saveFundedThrough(this.bot.deps.db, this.bot.id.botId, settledMs);
    });
  }

  private async bookFunding(fundingTimeMs: number, rate: number, price: number): Promise<void> {
    const { id, deps } = this.bot;
    const timeMs = deps.now();
    const { state: next, qty, amount } = this.fund(this.bot.state, price, rate, timeMs);
    if (amount === 0) return;
    const funding = { fundingTimeMs, timeMs, price, qty, amount };
    const lastPrice = this.bot.lastPrice ?? price;
    const refId = `funding-${id.botId}-${fundingTimeMs}`;
    if (!(await saveFunding(deps.writes, id.botId, id.userId, funding, next, lastPrice))) {
      // Booked already, and due again only when a crash came before the bot settled it, perhaps before the
      // wallet paid it: the booked amount is paid again, which moves the wallet once (a once-only payment).
      const booked = deps.payFunding && (await bookedFunding(deps.db, id.botId, fundingTimeMs));
      if (booked) await deps.payFunding?.(id.userId, booked, refId);
      return;
    }
    this.bot.state = next;
    // After the bot's row: a crash in between leaves the payment to the next run of the bot (above).
    await deps.payFunding?.(id.userId, String(amount), refId);
  }
}

import { applyFunding, fundingPayment } from '@gridbot/engine';
import type { BotContext, BotLifecycle } from './bot-context';
import { bookedFunding, saveFundedThrough } from './funding.repo';
import { saveFunding } from './runtime-writes';

/** A funding time that came due and its rate, undefined when the feed has none for it. */
export interface DueFunding {
  fundingTimeMs: number;
  rate: number | undefined;
}

/** Books the funding payments of a paper futures bot, each funding time once (docs/trading-rules.md §2.2). */
export class FundingBooking {
  constructor(
    private readonly ctx: BotContext,
    private readonly lifecycle: BotLifecycle,
  ) {}

  /**
   * Funding times the paper futures bot's feed passed, oldest first, each with its rate (undefined: the feed
   * has none, nothing is due), and `settledMs`, the funding time the bot has settled once they are booked
   * (docs/trading-rules.md §2.2). At each, an open position pays (rate > 0) or receives its notional at
   * `price` × `rate`, booked once on the bot and as an Order Book row.
   */
  onFunding(due: readonly DueFunding[], price: number, settledMs: number): Promise<void> {
    return this.lifecycle.serial(async () => {
      if (this.ctx.finished || this.ctx.id.market !== 'future') return;
      for (const { fundingTimeMs, rate } of due) {
        if (rate !== undefined) await this.bookFunding(fundingTimeMs, rate, price);
      }
      // After the bookings: a crash in between leaves times due again, which their keys book only once.
      await saveFundedThrough(this.ctx.deps.db, this.ctx.id.botId, settledMs);
    });
  }

  private async bookFunding(fundingTimeMs: number, rate: number, price: number): Promise<void> {
    const qty = this.ctx.state.account.posQty ?? this.ctx.state.account.openQty;
    const amount = fundingPayment(qty, price, rate);
    if (amount === 0) return;
    const timeMs = this.ctx.deps.now();
    const next = applyFunding(this.ctx.state, amount, timeMs);
    const funding = { fundingTimeMs, timeMs, price, qty, amount };
    const lastPrice = this.ctx.lastPrice ?? price;
    const refId = `funding-${this.ctx.id.botId}-${fundingTimeMs}`;
    if (
      !(await saveFunding(
        this.ctx.deps.writes,
        this.ctx.id.botId,
        this.ctx.id.userId,
        funding,
        next,
        lastPrice,
      ))
    ) {
      // Booked already, and due again only when a crash came before the bot settled it, perhaps before the
      // wallet paid it: the booked amount is paid again, which moves the wallet once (a once-only payment).
      const booked =
        this.ctx.deps.payFunding && (await bookedFunding(this.ctx.deps.db, this.ctx.id.botId, fundingTimeMs));
      if (booked) await this.ctx.deps.payFunding?.(this.ctx.id.userId, booked, refId);
      return;
    }
    this.ctx.state = next;
    // After the bot's row: a crash in between leaves the payment to the next run of the bot (above).
    await this.ctx.deps.payFunding?.(this.ctx.id.userId, String(amount), refId);
  }
}

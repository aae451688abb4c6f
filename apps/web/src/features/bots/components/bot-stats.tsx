import type { BotSummary, PurchasedQty } from '@gridbot/shared';
import { Sparkline } from '../../../components/ui/sparkline';
import { formatPrice } from '../../../lib/format';
import type { BotKind } from '../api/bot-paths';
import { formatDays, formatPct, formatQty, formatUsd, pnlTone, toNumber } from '../lib/bot-format';
import { Stat } from './bot-parts';

const APY_NOTE = 'APY is an estimate: ROI so far scaled to a year. It is not a promise of future returns.';

function price(value: number | string | null | undefined) {
  const n = toNumber(value);
  return n === null || n === 0 ? '—' : formatPrice(n);
}

/** docs/spec/02-bots-wallet-account.md stats of the running bot pages. */
export function BotStats({
  kind,
  bot,
  purchased,
}: {
  kind: BotKind;
  bot: BotSummary;
  purchased?: PurchasedQty;
}) {
  const positionPnl = toNumber(purchased?.pnl) ?? toNumber(bot.unrealizedPnl) ?? 0;
  const netPnl = toNumber(purchased?.totalpnl) ?? toNumber(bot.totalPnl) ?? 0;
  const booked = toNumber(bot.pnl) ?? 0;
  const avg = purchased?.avgPrice ?? bot.avg_buy_price;
  const qty = purchased?.totalQuantity ?? bot.purchased_qty;
  // With nothing held but the dust below the exchange's step, the position's P&L is the dust's: say so, or a
  // figure beside Purchased Qty 0 reads as an error.
  const dustOnly = (toNumber(qty) ?? 0) === 0 && positionPnl !== 0 && bot.dust ? bot.dust : null;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
      <Stat label="Runtime" value={formatDays(bot.runtime)} />
      <Stat label="APY" value={formatPct(bot.apy)} tone={pnlTone(bot.apy)} title={APY_NOTE} />
      <Stat label="Total Trades" value={bot.totalTrades ?? bot.trades24h} />
      <Stat label="Used Grid" value={`${bot.grid_no}/${bot.total_grid}`} />
      <Stat label="Lowest Buy Price" value={price(bot.last_buying_price)} />
      <Stat label="Average Buy Price" value={price(avg)} />
      <Stat label="Purchased Qty" value={formatQty(qty)} />
      <Stat label="Investment" value={formatUsd(bot.investment)} />
      <Stat
        label={kind === 'scalping' ? 'PNL' : 'Booked Profit'}
        value={formatUsd(booked)}
        tone={pnlTone(booked)}
      />
      <Stat label="Position P&L" value={formatUsd(positionPnl)} tone={pnlTone(positionPnl)}>
        {dustOnly ? (
          <p className="mt-0.5 truncate text-xs text-muted">
            on the dust: {formatQty(dustOnly.qty)} {dustOnly.asset}
          </p>
        ) : null}
      </Stat>
      <Stat label="Net P&L" value={formatUsd(netPnl)} tone={pnlTone(netPnl)} />
      {kind === 'scalping' ? (
        <Stat label="Price" value={formatPrice(Number(bot.liveprice))}>
          <Sparkline values={bot.sparklineData ?? []} className="mt-1 h-7" label="Recent prices" />
        </Stat>
      ) : (
        <Stat label="ROI" value={formatPct(bot.roi)} tone={pnlTone(bot.roi)} />
      )}
    </dl>
  );
}

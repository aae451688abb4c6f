import { type BotSummary, botReasonOf } from '@gridbot/shared';
import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Figure, signTone } from '../../../components/ui/figure';
import { HelpIcon } from '../../../components/ui/icons';
import { Sparkline } from '../../../components/ui/sparkline';
import { formatPair, formatPrice, formatSignedUsd, formatUsd } from '../../../lib/format';

export const APY_ESTIMATE =
  'APY is an estimate: the ROI so far scaled to a year. Past results do not promise future returns.';

/** The labels sit in a row, so APY's help icon stands beside its word. */
function BotFigure(props: ComponentProps<typeof Figure>) {
  return <Figure labelClassName="flex items-center gap-1" {...props} />;
}

/** docs/spec/01-core-screens.md Dashboard live-bot card; the whole card opens the bot's running page. */
export function LiveBotCard({ bot }: { bot: BotSummary }) {
  const scalp = bot.tradeType === 'scalp';
  const to = `${scalp ? '/scalp-running-bot' : '/running-bot'}/${encodeURIComponent(bot.id)}`;
  const pnl = Number(bot.pnl);
  const apy = Number(bot.apy);
  const reason = botReasonOf({
    status: bot.status,
    haltReason: bot.haltReason,
    stopReason: bot.stopReason ?? null,
    pausePrice: bot.sell_all_and_pause_at_price,
    restartPrice: bot.restart_at_price,
  });
  return (
    // A stretched link: the pair names it (its visible text is part of its name, WCAG 2.5.3) and its ::after
    // covers the card, so the whole card still opens the bot.
    <article className="group relative rounded-xl border border-line bg-surface p-4 shadow-card transition-[border-color,transform] duration-150 hover:-translate-y-0.5 hover:border-primary/50 has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-ring">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate text-base font-bold text-fg">
            <Link
              to={to}
              aria-label={`${formatPair(bot.name)} ${scalp ? 'Scalping' : 'Multigrid'} bot, ${bot.status}${reason?.action === 'resume' ? ' (paused by the system)' : ''}`}
              className="outline-none after:absolute after:inset-0 after:rounded-xl"
            >
              {formatPair(bot.name)}
            </Link>
          </p>
          <p className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-muted">
            <Badge tone="primary">{bot.category}</Badge>
            <Badge tone="neutral">{scalp ? 'Scalping' : 'Multigrid'}</Badge>
            <span className="truncate">{bot.strategy_name || 'System Strategy'}</span>
          </p>
        </div>
        <div className="shrink-0 text-right">
          <Badge tone={bot.status === 'Live' ? 'up' : 'warn'} className="normal-case">
            {bot.status}
          </Badge>
          <p className="mt-1 text-sm font-semibold text-fg tabular-nums">
            {formatPrice(Number(bot.liveprice))}
          </p>
        </div>
      </div>
      {reason ? (
        <p
          data-testid="halt-reason"
          className="mt-2 line-clamp-2 rounded-md bg-warn/10 px-2 py-1 text-xs text-fg"
        >
          {reason.text}
          {reason.action === 'resume' ? (
            <span className="font-semibold"> Open the bot to resume it.</span>
          ) : null}
          {reason.action === 'edit_limits' ? (
            <span className="font-semibold"> Open the bot to edit its price limits.</span>
          ) : null}
        </p>
      ) : null}
      <Sparkline values={bot.sparklineData ?? []} className="mt-3 h-10" />
      <dl className="mt-3 grid grid-cols-3 gap-x-3 gap-y-2.5">
        <BotFigure label="Runtime" value={`${Number(bot.runtime).toFixed(2)} d`} />
        <BotFigure
          label={
            <>
              APY
              <span title={APY_ESTIMATE} className="inline-flex">
                <HelpIcon className="size-3.5" aria-hidden="true" />
                <span className="sr-only">{APY_ESTIMATE}</span>
              </span>
            </>
          }
          value={`${apy > 0 ? '+' : ''}${apy.toFixed(2)}%`}
          tone={signTone(apy)}
        />
        <BotFigure label="Investment" value={formatUsd(bot.investment)} />
        <BotFigure label="Booked Profit" value={formatSignedUsd(pnl)} tone={signTone(pnl)} />
        <BotFigure label="Total Trades" value={bot.totalTrades ?? bot.trades24h} />
        <BotFigure label="Used Grid" value={`${bot.grid_no}/${bot.total_grid}`} />
      </dl>
    </article>
  );
}

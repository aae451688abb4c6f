import type { BotSummary } from '@gridbot/shared';
import { useId, useState } from 'react';
import { BarChart } from '../../../components/ui/bar-chart';
import { Card } from '../../../components/ui/card';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { formatPair, formatUsd } from '../../../lib/format';

const ALL = 'all';

/** Profit per day of one bot, or of all bots summed, from datewiseprofit. */
export function dailySeries(bots: BotSummary[], botId: string): [string, number][] {
  const totals = new Map<string, number>();
  for (const bot of bots) {
    if (botId !== ALL && bot.id !== botId) continue;
    for (const [date, value] of Object.entries(bot.datewiseprofit ?? {})) {
      totals.set(date, (totals.get(date) ?? 0) + Number(value));
    }
  }
  return [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)).slice(-30);
}

/** docs/spec/01-core-screens.md Dashboard: the daily profit chart per bot (a bot picker; all bots summed by default). */
export function DailyProfitChart({ bots }: { bots: BotSummary[] }) {
  const [botId, setBotId] = useState(ALL);
  const selectId = useId();
  const chosen = bots.some((b) => b.id === botId) ? botId : ALL;
  const series = dailySeries(bots, chosen);
  const height = 240;

  return (
    <Card className="h-full">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-line px-5 py-4">
        <div>
          <h2 className="text-base font-semibold text-fg">Daily Profit</h2>
          <p className="mt-0.5 text-sm text-muted">Booked profit per day, in USDT.</p>
        </div>
        <div className="relative">
          <label htmlFor={selectId} className="sr-only">
            Bot
          </label>
          <select
            id={selectId}
            value={chosen}
            onChange={(event) => setBotId(event.target.value)}
            className="h-9 w-56 max-w-full appearance-none truncate rounded-lg border border-line bg-surface pr-8 pl-3 text-sm font-medium text-fg focus:border-primary focus:outline-none focus:ring-3 focus:ring-ring/40"
          >
            <option value={ALL}>All bots</option>
            {bots.map((bot) => (
              <option key={bot.id} value={bot.id}>
                {formatPair(bot.name)} · {bot.strategy_name || 'System Strategy'}
              </option>
            ))}
          </select>
          <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted" />
        </div>
      </div>
      <div className="px-3 py-3">
        {series.length === 0 ? (
          <div style={{ height }} className="flex items-center justify-center text-sm text-muted">
            No profit booked yet.
          </div>
        ) : (
          <BarChart bars={series} height={height} label="Daily profit" formatValue={formatUsd} />
        )}
      </div>
    </Card>
  );
}

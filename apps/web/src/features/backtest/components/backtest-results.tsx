import type { BacktestReport } from '@gridbot/engine';
import { Figure, signTone } from '../../../components/ui/figure';
import { formatNumber, formatSignedUsd, formatUsd } from '../../../lib/format';
import { type BacktestOutcomeOk, verdictOf } from '../lib/backtest-core';
import { durationText, utc } from '../lib/history-period';
import { DrawdownChart, EquityChart, TradesChart } from './backtest-charts';

const STOP_REASONS: Record<NonNullable<BacktestReport['stopReason']>, string> = {
  stoploss: 'Stoploss price reached',
  profit_book: 'Profit book target reached',
  liquidated: 'Liquidated',
  manual: 'Stopped',
  manual_sell: 'Sold and stopped',
  completed: 'Completed',
};

const pct = (v: number) => `${v > 0 ? '+' : ''}${v.toFixed(2)} %`;

/** The report of one backtest: verdict, figures, equity against holding, drawdown and the trades on the candles. */
export function BacktestResults({ result, candles }: { result: BacktestOutcomeOk; candles: number }) {
  const s = result.summary;
  const verdict = verdictOf(s);
  return (
    <div className="@container space-y-4" data-testid="backtest-results">
      <p className="text-xs text-muted">
        {utc(s.startMs)} to {utc(s.endMs)} UTC · {durationText(s.endMs - s.startMs)} · {formatNumber(candles)}{' '}
        candles · fees included
      </p>
      {verdict ? (
        <p
          role="status"
          data-testid="backtest-verdict"
          className="rounded-lg border border-down/40 bg-down/10 px-3 py-2 text-sm font-medium text-fg"
        >
          {verdict}
        </p>
      ) : null}
      <dl
        className="grid grid-cols-2 gap-x-4 gap-y-3 @md:grid-cols-3 @2xl:grid-cols-4"
        data-testid="backtest-figures"
      >
        <Figure label="Total PnL" value={formatSignedUsd(s.totalPnl)} tone={signTone(s.totalPnl)} />
        <Figure label="ROI" value={pct(s.roiPct)} tone={signTone(s.roiPct)} />
        <Figure label="APR" value={pct(s.aprPct)} tone={signTone(s.aprPct)} />
        <Figure label="Buy & hold" value={pct(s.buyAndHoldPct)} tone={signTone(s.buyAndHoldPct)} />
        <Figure
          label="Booked profit"
          value={formatSignedUsd(s.bookedProfit)}
          tone={signTone(s.bookedProfit)}
        />
        <Figure
          label="Unrealized"
          value={formatSignedUsd(s.unrealizedPnl)}
          tone={signTone(s.unrealizedPnl)}
        />
        <Figure label="Fees paid" value={formatUsd(s.fees)} />
        <Figure label="Funding" value={formatSignedUsd(s.funding)} tone={signTone(s.funding)} />
        <Figure label="Max drawdown" value={`${s.maxDrawdownPct.toFixed(2)} %`} />
        <Figure label="Sharpe" value={s.sharpe === null ? '—' : s.sharpe.toFixed(2)} />
        <Figure label="Time in market" value={`${s.timeInMarketPct.toFixed(1)} %`} />
        <Figure label="Trades" value={formatNumber(s.trades)} />
        <Figure label="Open grids at end" value={String(s.openGrids)} />
        <Figure label="Stop" value={s.stopReason ? STOP_REASONS[s.stopReason] : 'Ran to the end'} />
      </dl>
      <section aria-label="Equity against holding">
        <h3 className="mb-1 flex flex-wrap items-center gap-x-3 text-sm font-semibold text-fg">
          Equity
          <span className="text-xs font-normal text-muted">
            <span className="text-primary">━</span> strategy · <span>┅</span> holding the coin
          </span>
        </h3>
        <EquityChart result={result} />
      </section>
      <section aria-label="Drawdown">
        <h3 className="mb-1 text-sm font-semibold text-fg">
          Drawdown <span className="text-xs font-normal text-muted">(daily equity below its peak)</span>
        </h3>
        <DrawdownChart result={result} />
      </section>
      <section aria-label="Trades on the price chart">
        <h3 className="mb-1 text-sm font-semibold text-fg">Buys and sells</h3>
        <TradesChart result={result} />
      </section>
    </div>
  );
}

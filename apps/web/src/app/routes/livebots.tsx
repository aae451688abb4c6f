import { lazy, Suspense } from 'react';
import { TopBots } from '../../features/copy-bots/components/top-bots';
import { BacktestFallback, StrategyBacktest } from '../backtest-slots';

// The grid's backtest (engine, worker) loads only when a grid's copy dialog is open.
const GridCopyBacktest = lazy(() => import('../../features/backtest/components/grid-copy-backtest'));

/**
 * docs/spec/01-core-screens.md Copy BOTs (/livebots), with a backtest of a top bot's strategy on the user's pair,
 * and of a range grid's range and settings on its own pair's last 7 and 30 days.
 */
export default function LivebotsRoute() {
  return (
    <TopBots
      renderBacktest={(bot) => {
        const category = bot.category === 'Future' ? 'future' : 'spot';
        const leverage = bot.category === 'Future' ? bot.leverage : null;
        return bot.botType === 'range' ? (
          <Suspense fallback={<BacktestFallback />}>
            <GridCopyBacktest
              symbol={bot.name}
              category={category}
              leverage={leverage}
              strategy={bot.strategy ?? {}}
            />
          </Suspense>
        ) : (
          <StrategyBacktest
            strategy={{ type: bot.botType, ...bot.strategy }}
            symbol={bot.name}
            category={category}
            leverage={leverage}
            description="This bot's strategy on the pair and amount you choose, over the pair's price history."
          />
        );
      }}
    />
  );
}

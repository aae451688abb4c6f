import { TopBots } from '../../features/copy-bots/components/top-bots';
import { StrategyBacktest } from '../backtest-slots';

/** docs/spec/01-core-screens.md Copy BOTs (/livebots), with a backtest of a top bot's strategy on the user's pair. */
export default function LivebotsRoute() {
  return (
    <TopBots
      renderBacktest={(bot) => (
        <StrategyBacktest
          strategy={{ type: bot.botType, ...bot.strategy }}
          symbol={bot.name}
          category={bot.category === 'Future' ? 'future' : 'spot'}
          leverage={bot.category === 'Future' ? bot.leverage : null}
          description="This bot's strategy on the pair and amount you choose, over the pair's price history."
        />
      )}
    />
  );
}

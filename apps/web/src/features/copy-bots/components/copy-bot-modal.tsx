import type { TopBot } from '@gridbot/shared';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { formatPair } from '../../../lib/format';
import { startBotPath } from '../../../lib/start-bot-link';
import { startGridPath } from '../../../lib/start-grid-link';
import { toast } from '../../../lib/toast';
import { useCopyBotStrategy } from '../api/copy-bots';
import { kindLabel, shapeText } from './bot-kind';
import { RangeParams } from './range-params';
import { StrategyShape } from './strategy-shape';

const COPY_FAILED = 'Could not copy this strategy. Please try again.';
const GRID_COPIED = 'Grid copied: check its values and enter your amount.';

/**
 * docs/product.md §5: the Start New Bot modal copies the strategy, then Start Bot opens prefilled; the amount is
 * yours. A range grid's copy opens Start Grid with the grid's parameters, which the user may change before starting.
 */
export function CopyBotModal({
  bot,
  onClose,
  renderBacktest,
}: {
  bot: TopBot | null;
  onClose: () => void;
  /** The backtest of the bot's strategy on a pair the user picks, composed by the route. */
  renderBacktest?: (bot: TopBot) => ReactNode;
}) {
  const navigate = useNavigate();
  const copy = useCopyBotStrategy();
  const scalping = bot?.botType === 'scalping';
  const grid = bot?.botType === 'range';

  const onCopy = () => {
    if (!bot) return;
    copy.mutate(bot.copyToken, {
      onSuccess: (copied) => {
        if ('strategy' in copied) {
          toast.success(GRID_COPIED);
          void navigate(startGridPath({ pair: bot.name, category: bot.category, strategy: copied.strategy }));
          return;
        }
        toast.success(`Strategy copied as ${copied.strategy_name}`);
        void navigate(
          startBotPath({
            pair: bot.name,
            category: bot.category,
            strategy: copied.strategy_name,
            botType: copied.botType?.toLowerCase().startsWith('scalp') || scalping ? 'Scalping' : 'Multigrid',
          }),
        );
      },
      onError: (error) => {
        toast.error(errorMessage(error, COPY_FAILED));
      },
    });
  };

  return (
    <Modal
      open={bot !== null}
      onClose={copy.isPending ? undefined : onClose}
      title="Start New Bot"
      description={
        grid
          ? "Open Start Grid with this grid's range and settings, check or change them, then start it with your own amount."
          : "Copy this bot's strategy into your own strategies, then start it with your own amount."
      }
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={copy.isPending}>
            Cancel
          </Button>
          <Button onClick={onCopy} loading={copy.isPending}>
            Copy
          </Button>
        </>
      }
    >
      {bot ? (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-lg font-bold text-fg">{formatPair(bot.name)}</span>
            <Badge tone="primary">{bot.category}</Badge>
            <Badge tone="neutral">{kindLabel(bot)}</Badge>
            {bot.category === 'Future' ? <Badge tone="neutral">{bot.leverage}x</Badge> : null}
          </div>
          <dl className="grid grid-cols-3 gap-3 rounded-lg bg-surface-2 p-3 text-sm">
            <div>
              <dt className="text-xs text-muted">ROI</dt>
              {/* Coloured by sign, as on the card: a bot in the top 20 can still be at a loss. */}
              <dd
                data-testid="copy-bot-roi"
                className={clsx('font-semibold tabular-nums', Number(bot.roi) >= 0 ? 'text-up' : 'text-down')}
              >
                {Number(bot.roi) >= 0 ? '+' : ''}
                {Number(bot.roi).toFixed(2)}%
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted">APY (estimate)</dt>
              <dd className="font-semibold text-fg tabular-nums">{Number(bot.apy).toFixed(2)}%</dd>
            </div>
            <div>
              <dt className="text-xs text-muted">Runtime</dt>
              <dd className="font-semibold text-fg tabular-nums">{Number(bot.runtime).toFixed(2)} days</dd>
            </div>
          </dl>
          {grid ? (
            <div>
              <h3 className="mb-2 text-sm font-semibold text-fg">Grid: {shapeText(bot)}</h3>
              <RangeParams strategy={bot.strategy ?? {}} future={bot.category === 'Future'} />
            </div>
          ) : (
            <div>
              <h3 className="mb-2 text-sm font-semibold text-fg">Strategy: {bot.shape}</h3>
              <StrategyShape strategy={bot.strategy ?? {}} />
            </div>
          )}
          {renderBacktest?.(bot)}
          <p className="text-xs text-muted">
            Past results of other users' bots do not promise future returns. Check the strategy before you
            start it.
          </p>
        </div>
      ) : null}
    </Modal>
  );
}

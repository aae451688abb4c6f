import type { BotInfo } from '@gridbot/shared';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ExchangeName } from '../../../components/ui/exchange-name';
import { PageHeader } from '../../../components/ui/page-header';
import { formatPair, formatPrice } from '../../../lib/format';
import type { BotKind } from '../api/bot-paths';
import { StatusBadge } from './bot-parts';

interface BotHeaderProps {
  kind: BotKind;
  bot: BotInfo;
  onStop?: () => void;
}

/**
 * docs/spec/02-bots-wallet-account.md header: pair, category, leverage, strategy (the scalping page adds live price and
 * status), and the exchange the bot trades on (ours).
 */
export function BotHeader({ kind, bot, onStop }: BotHeaderProps) {
  const title = `${formatPair(bot.name)} ${kind === 'scalping' ? 'Scalping' : 'Multigrid'} Bot`;
  return (
    <Card className="p-4 sm:p-5">
      <div className="-mb-6">
        <PageHeader
          title={title}
          description={
            <span className="mt-1 flex flex-wrap items-center gap-2">
              <Badge tone="primary">{bot.category}</Badge>
              {bot.category === 'Future' ? <Badge tone="neutral">{bot.leverage}x</Badge> : null}
              <span className="text-muted">
                Strategy{' '}
                <span className="font-semibold text-fg">{bot.strategy_name || 'System Strategy'}</span>
              </span>
              {bot.exchange ? <ExchangeName name={bot.exchange} testId="bot-exchange" /> : null}
            </span>
          }
          actions={
            <div className="flex items-center gap-3">
              <div className="text-right">
                <p className="text-xs text-muted">Live price</p>
                <p className="text-lg font-bold text-fg tabular-nums" data-testid="bot-live-price">
                  {formatPrice(Number(bot.liveprice))}
                </p>
              </div>
              <StatusBadge status={bot.status} />
              {onStop ? (
                <Button variant="danger" onClick={onStop}>
                  Stop
                </Button>
              ) : null}
            </div>
          }
        />
      </div>
    </Card>
  );
}

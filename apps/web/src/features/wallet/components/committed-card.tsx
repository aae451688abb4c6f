import type { BotCommitment } from '@gridbot/shared';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';
import { useCommittedFunds } from '../api/wallet-queries';
import { formatQuantity, formatUsdt } from '../lib/amounts';

const pageOf = (bot: BotCommitment) =>
  bot.botType === 'cycle'
    ? '/cycle'
    : bot.botType === 'scalping'
      ? `/scalp-running-bot/${bot.botId}`
      : `/running-bot/${bot.botId}`;

/**
 * What running bots and cycles hold, per bot: the USDT kept for their next buys (with fees) and the coins
 * they bought. The transferable cards and the assets' free parts leave these out.
 */
export function CommittedCard() {
  const committed = useCommittedFunds();
  const rows = committed.data?.bots ?? [];
  if (rows.length === 0) return null;
  return (
    <Card className="p-3 sm:p-5" data-testid="committed-funds">
      <h2 className="px-1 text-base font-semibold text-fg sm:px-0">Held by running bots</h2>
      <p className="mt-1 px-1 text-sm text-muted sm:px-0">
        Kept for each bot's next buys and fees, and the coins it bought. Stop a bot to free them.
      </p>
      <ul className="mt-3 divide-y divide-line">
        {rows.map((bot) => (
          <li
            key={bot.botId}
            className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-1 py-2.5"
          >
            <Link to={pageOf(bot)} className="min-w-0 font-semibold text-fg hover:text-primary">
              {bot.name}
            </Link>
            <span className="text-sm text-muted tabular-nums">
              <span className="font-semibold text-fg">{formatUsdt(bot.usdt) ?? '0.00'}</span> USDT
              {bot.asset && Number(bot.qty) > 0 ? (
                <>
                  {' · '}
                  <span className="font-semibold text-fg">{formatQuantity(bot.qty)}</span> {bot.asset}
                </>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

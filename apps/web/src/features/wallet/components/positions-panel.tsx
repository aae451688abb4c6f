import type { PositionView } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { useOpenOrders } from '../api/open-orders';
import { usePositions } from '../api/positions';
import { formatQuantity, formatUsdt } from '../lib/amounts';
import { ClosePositionDialog } from './close-position-dialog';
import { OpenOrdersSection } from './open-orders-section';
import { Figure, isRunning } from './panel-parts';

/** A price as the exchange gives it (not rounded to cents: a coin may cost less than one). */
const price = (value: string | null) => (value === null ? '—' : formatQuantity(value));

function Pnl({ value }: { value: string | null }) {
  if (value === null) return <>—</>;
  const n = Number(value);
  const sign = n > 0 ? '+' : n < 0 ? '-' : '';
  return (
    <span className={clsx(n > 0 && 'text-up', n < 0 && 'text-down')}>
      {sign}
      {formatUsdt(Math.abs(n)) ?? '0.00'} USDT
    </span>
  );
}

/** Whose position it is, in words: a running bot cannot have it closed from here (its lots would be orphaned). */
function Owner({ position }: { position: PositionView }) {
  if (!position.bot) return <span className="text-muted">No bot</span>;
  const running = isRunning(position.bot.status);
  return (
    <span>
      {position.bot.name}{' '}
      <span className="text-muted">{running ? '(running)' : '(stopped, position left open)'}</span>
    </span>
  );
}

function PositionRow({
  position,
  compact,
  onClose,
}: {
  position: PositionView;
  compact: boolean;
  onClose: (p: PositionView) => void;
}) {
  const runningBot = position.bot !== null && isRunning(position.bot.status);
  return (
    <li className="px-1 py-3" data-testid={`position-${position.symbol}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span className="font-semibold text-fg">
          {position.symbol}{' '}
          <span className="text-sm font-normal text-muted">
            {position.side === 'short' ? 'Short' : 'Long'} {position.leverage}×
          </span>
        </span>
        <span className="text-sm">
          <Owner position={position} />
        </span>
      </div>
      <dl
        className={clsx(
          'mt-2 grid gap-x-4 gap-y-2 text-sm',
          compact ? 'grid-cols-2 sm:grid-cols-3' : 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-6',
        )}
      >
        {compact ? null : <Figure label="Size">{formatQuantity(position.quantity)}</Figure>}
        {compact ? null : <Figure label="Entry price">{price(position.entryPrice)}</Figure>}
        {compact ? null : <Figure label="Mark price">{price(position.markPrice)}</Figure>}
        <Figure label="Margin">{formatUsdt(position.margin) ?? '0.00'} USDT</Figure>
        <Figure label="Liquidation price">{price(position.liquidationPrice)}</Figure>
        <Figure label="Unrealized PnL">
          <Pnl value={position.unrealizedPnl} />
        </Figure>
      </dl>
      {compact ? null : (
        <div className="mt-2 flex flex-wrap items-center justify-end gap-3">
          {runningBot ? (
            <span className="text-sm text-muted">Stop the bot with "sell" to close this position.</span>
          ) : (
            <Button
              size="sm"
              variant="outline"
              onClick={() => onClose(position)}
              aria-label={`Close ${position.symbol} position`}
            >
              Close
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * Every futures position and every open order of the exchange account, whoever opened or placed them: a
 * position outlives a bot stopped without a sale and its margin stays held until it is closed; an order holds
 * what it would spend. `compact` (the dashboard) shows only what there is, with a way to the wallet, and
 * nothing when there is neither.
 */
export function PositionsPanel({ compact = false }: { compact?: boolean }) {
  const positions = usePositions();
  const orders = useOpenOrders();
  const [closing, setClosing] = useState<PositionView | null>(null);
  const rows = positions.data?.positions ?? [];
  const hasOrders = (orders.data?.orders.length ?? 0) > 0;
  if (compact && rows.length === 0 && !hasOrders) return null;
  if (positions.data?.connected === false) return null;
  const showPositions = !compact || rows.length > 0;
  const walletLink = compact ? (
    <Link to="/mywallet" className="text-sm font-semibold text-primary hover:underline">
      Manage in Wallet
    </Link>
  ) : null;
  return (
    <Card className="p-3 sm:p-5" data-testid={compact ? 'positions-compact' : 'positions'}>
      {showPositions ? (
        <>
          <div className="flex flex-wrap items-baseline justify-between gap-2 px-1 sm:px-0">
            <h2 className="text-base font-semibold text-fg">Open positions</h2>
            {walletLink}
          </div>
          <p className="mt-1 px-1 text-sm text-muted sm:px-0">
            Futures positions of your exchange account. Their margin stays held, and cannot be transferred,
            until they are closed.
          </p>
          {positions.isError ? (
            <p className="mt-3 px-1 text-sm text-down">
              Positions could not be loaded: {positions.error.message}
            </p>
          ) : positions.isPending ? (
            <p className="mt-3 px-1 text-sm text-muted">Loading positions…</p>
          ) : rows.length === 0 ? (
            <p className="mt-3 px-1 text-sm text-muted">No open futures positions.</p>
          ) : (
            <ul className="mt-2 divide-y divide-line">
              {rows.map((p) => (
                <PositionRow key={p.symbol} position={p} compact={compact} onClose={setClosing} />
              ))}
            </ul>
          )}
        </>
      ) : null}
      <OpenOrdersSection compact={compact} first={!showPositions} link={showPositions ? null : walletLink} />
      {compact ? null : <ClosePositionDialog position={closing} onClose={() => setClosing(null)} />}
    </Card>
  );
}

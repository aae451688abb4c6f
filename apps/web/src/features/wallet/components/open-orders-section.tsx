import type { OpenOrderView } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/format';
import { useOpenOrders } from '../api/open-orders';
import { formatQuantity } from '../lib/amounts';
import { CancelOrderDialog } from './cancel-order-dialog';
import { isRunning } from './panel-parts';

/** Whose order it is, in words: a running bot's cannot be canceled from here (the bot would wait for it). */
function Owner({ order }: { order: OpenOrderView }) {
  if (!order.bot) return <span className="text-muted">No bot</span>;
  return (
    <span>
      {order.bot.name}{' '}
      <span className="text-muted">{isRunning(order.bot.status) ? '(running)' : '(stopped)'}</span>
    </span>
  );
}

/** A React key and test id: one client order id per account and market. */
const keyOf = (order: OpenOrderView) => `${order.market}-${order.symbol}-${order.clientOrderId}`;

/** A labelled figure on one line: a grid rests many orders, so each takes a line or two, not a block. */
function Inline({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-1">
      <dt className="text-muted">{label}</dt>
      <dd className="font-semibold text-fg tabular-nums">{children}</dd>
    </div>
  );
}

/** Why an order has no Cancel: a running bot's waits for its fill; one without a client id is not ours to name. */
function CancelCell({ order, onCancel }: { order: OpenOrderView; onCancel: (o: OpenOrderView) => void }) {
  if (order.bot !== null && isRunning(order.bot.status)) return null;
  if (order.clientOrderId === '')
    return <span className="text-sm text-muted">Cancel it on the exchange.</span>;
  return (
    <Button
      size="sm"
      variant="outline"
      onClick={() => onCancel(order)}
      aria-label={`Cancel ${order.symbol} ${order.side} order at ${order.price ?? 'market'}`}
    >
      Cancel
    </Button>
  );
}

function OrderRow({
  order,
  compact,
  onCancel,
}: {
  order: OpenOrderView;
  compact: boolean;
  onCancel: (o: OpenOrderView) => void;
}) {
  return (
    <li
      className="flex flex-wrap items-center gap-x-4 gap-y-1 px-1 py-2.5"
      data-testid={`order-${keyOf(order)}`}
    >
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5">
          <span className="font-semibold text-fg">
            {order.symbol}{' '}
            <span className="text-sm font-normal text-muted">
              {order.market === 'future' ? 'Futures' : 'Spot'}{' '}
            </span>
            <span className={clsx('text-sm', order.side === 'buy' ? 'text-up' : 'text-down')}>
              {order.side === 'buy' ? 'Buy' : 'Sell'}
            </span>
          </span>
          <span className="text-sm">
            <Owner order={order} />
          </span>
        </div>
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-sm">
          <Inline label="Price">{order.price === null ? 'Market' : formatQuantity(order.price)}</Inline>
          <Inline label="Quantity">{formatQuantity(order.quantity)}</Inline>
          <Inline label="Filled">{formatQuantity(order.filledQuantity)}</Inline>
          <Inline label="Placed">{formatDate(new Date(order.createdMs).toISOString())}</Inline>
        </dl>
      </div>
      {compact ? null : <CancelCell order={order} onCancel={onCancel} />}
    </li>
  );
}

/** The dashboard lists the newest few: a range grid rests an order per line, the wallet lists them all. */
const COMPACT_ROWS = 5;

/**
 * Every open order of the exchange account, spot and futures, whoever placed it: a range grid rests limit
 * orders, and an order a stopped bot or the exchange's own site left holds funds until it is canceled.
 * `compact` (the dashboard) shows the orders only when there are some, without Cancel.
 */
export function OpenOrdersSection({
  compact = false,
  first = false,
  link = null,
}: {
  compact?: boolean;
  /** The panel's first section: no rule above it. */
  first?: boolean;
  /** The panel's way to the wallet, beside the heading when this section heads the panel. */
  link?: React.ReactNode;
}) {
  const orders = useOpenOrders();
  const titleId = useId();
  const [canceling, setCanceling] = useState<OpenOrderView | null>(null);
  const rows = orders.data?.orders ?? [];
  if (orders.data?.connected === false) return null;
  if (compact && rows.length === 0) return null;
  const shown = compact ? rows.slice(0, COMPACT_ROWS) : rows;
  const hidden = rows.length - shown.length;
  return (
    <section
      className={clsx(!first && 'mt-4 border-t border-line pt-4')}
      data-testid="open-orders"
      aria-labelledby={titleId}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2 px-1 sm:px-0">
        <h2 id={titleId} className="text-base font-semibold text-fg">
          Open orders
        </h2>
        {link}
      </div>
      <p className="mt-1 px-1 text-sm text-muted sm:px-0">
        Spot and futures orders waiting on your exchange account. What they would spend stays held until they
        fill or are canceled.
      </p>
      {orders.isError ? (
        <p className="mt-3 px-1 text-sm text-down">Open orders could not be loaded: {orders.error.message}</p>
      ) : orders.isPending ? (
        <p className="mt-3 px-1 text-sm text-muted">Loading open orders…</p>
      ) : rows.length === 0 ? (
        <p className="mt-3 px-1 text-sm text-muted">No open orders.</p>
      ) : (
        <>
          <ul className="mt-2 divide-y divide-line">
            {shown.map((o) => (
              <OrderRow key={keyOf(o)} order={o} compact={compact} onCancel={setCanceling} />
            ))}
          </ul>
          {hidden > 0 ? (
            <p className="mt-1 px-1 text-sm text-muted">
              {hidden} more open {hidden === 1 ? 'order' : 'orders'} in the Wallet.
            </p>
          ) : null}
          {!compact && rows.some((o) => o.bot && isRunning(o.bot.status)) ? (
            <p className="mt-1 px-1 text-sm text-muted">
              A running bot's orders are canceled by stopping the bot.
            </p>
          ) : null}
        </>
      )}
      {compact ? null : <CancelOrderDialog order={canceling} onClose={() => setCanceling(null)} />}
    </section>
  );
}

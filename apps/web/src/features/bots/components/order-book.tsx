import { botApiPaths, type OrderBookPage, type OrderBookRow } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Pagination } from '../../../components/ui/pagination';
import { Skeleton } from '../../../components/ui/skeleton';
import { useNarrowBox } from '../../../components/ui/use-narrow-box';
import { errorMessage } from '../../../lib/api-client';
import { downloadFromApi } from '../../../lib/download';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { formatQty, formatUsd, pnlTone } from '../lib/bot-format';

interface OrderBookProps {
  /** The bot, for the CSV export of all its fills. */
  bot?: { id: string; name: string };
  data: OrderBookPage | undefined;
  loading: boolean;
  page: number;
  onPageChange: (page: number) => void;
}

const headers = ['Date', 'Price', 'Type', 'Quantity', 'Amount($)', 'PnL($)'] as const;

const EMPTY_TEXT = "No orders yet. The bot's buys and sells appear here.";

// Orders have no id in the response; time, side, grid and price tell them apart.
const orderKey = (order: OrderBookRow) => `${order.date}-${order.type}-${order.grid}-${order.price}`;
// A funding payment is no order: neutral, its PnL column carries the sign.
const TYPE_TONE: Record<OrderBookRow['type'], string> = {
  BUY: 'text-up',
  SELL: 'text-down',
  FUNDING: 'text-muted',
};
const typeTone = (order: OrderBookRow) => TYPE_TONE[order.type];

/** The table's least width (its `min-w`); a narrower card lists the orders instead. */
const TABLE_MIN_PX = 544;

/**
 * docs/spec/02-bots-wallet-account.md Order Book: 20 orders per page, newest first; SELL red, BUY green; PnL coloured by sign. On a phone,
 * or in a card narrower than the table (a tablet beside the sidebar), each order is two lines instead of a
 * six-column table that scrolls sideways.
 */
export function OrderBook({ bot, data, loading, page, onPageChange }: OrderBookProps) {
  const { ref, narrow } = useNarrowBox(TABLE_MIN_PX);
  const [exporting, setExporting] = useState(false);
  const onExport = () => {
    if (!bot) return;
    setExporting(true);
    downloadFromApi(`${botApiPaths.fillsCsv}?botID=${encodeURIComponent(bot.id)}`, `${bot.name}-fills.csv`)
      .catch((error: unknown) => toast.error(errorMessage(error, 'The export failed. Please try again.')))
      .finally(() => setExporting(false));
  };
  const orders = data?.orders ?? [];
  const pages = data?.pages ?? 1;
  const pending = loading && !data;
  return (
    <Card ref={ref}>
      <CardHeader
        title="Order Book"
        description={data ? `${data.total} ${data.total === 1 ? 'order' : 'orders'}` : undefined}
        actions={
          bot && data && data.total > 0 ? (
            <Button variant="outline" size="sm" onClick={onExport} loading={exporting}>
              Export CSV
            </Button>
          ) : undefined
        }
      />
      {narrow ? (
        <OrderList orders={orders} loading={pending} />
      ) : (
        <OrderTable orders={orders} loading={pending} />
      )}
      {!loading && orders.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-muted">{EMPTY_TEXT}</p>
      ) : null}
      {data && data.total > 0 ? (
        <div className="border-t border-line px-4 py-3">
          <Pagination label="Order Book pages" page={page} pages={pages} onChange={onPageChange} />
        </div>
      ) : null}
    </Card>
  );
}

function OrderList({ orders, loading }: { orders: OrderBookRow[]; loading: boolean }) {
  if (loading)
    return (
      <div aria-busy="true" className="grid gap-3 px-4 py-3">
        {Array.from({ length: 4 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  if (orders.length === 0) return null;
  return (
    <ul aria-label="Order Book" className="tabular-nums">
      {orders.map((order) => (
        <li
          key={orderKey(order)}
          className="flex items-start justify-between gap-3 border-b border-line/60 px-4 py-2.5 last:border-b-0"
        >
          <div className="min-w-0">
            <p className="text-sm text-fg">
              <span className={clsx('font-semibold', typeTone(order))}>{order.type}</span>{' '}
              {formatQty(order.quantity)} <span className="text-muted">@</span>{' '}
              {formatPrice(Number(order.price))}
            </p>
            <p className="text-xs text-muted">{formatDateTime(order.date)}</p>
          </div>
          <div className="shrink-0 text-right">
            <p className="text-sm">
              <span className="text-xs text-muted">PnL </span>
              <span className={clsx('font-medium', pnlTone(Number(order.pnl)))}>{formatUsd(order.pnl)}</span>
            </p>
            <p className="text-xs text-muted">Amount {formatUsd(order.cummulativeQuoteQty)}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

function OrderTable({ orders, loading }: { orders: OrderBookRow[]; loading: boolean }) {
  return (
    <div className="overflow-x-auto">
      {/* min-w-[34rem] is TABLE_MIN_PX */}
      <table className="w-full min-w-[34rem] text-sm" aria-label="Order Book">
        <thead>
          <tr className="border-b border-line text-left text-xs font-semibold uppercase tracking-wide text-muted">
            {headers.map((h, i) => (
              <th
                key={h}
                scope="col"
                className={clsx('px-3 py-2.5 whitespace-nowrap', i > 0 && 'text-right')}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading
            ? Array.from({ length: 5 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows
                <tr key={i} className="border-b border-line/60">
                  {headers.map((h) => (
                    <td key={h} className="px-4 py-3">
                      <Skeleton className="h-4 w-full" />
                    </td>
                  ))}
                </tr>
              ))
            : orders.map((order) => (
                <tr
                  key={orderKey(order)}
                  className="border-b border-line/60 tabular-nums last:border-b-0 hover:bg-surface-2/60"
                >
                  <td className="px-3 py-2.5 whitespace-nowrap text-muted">{formatDateTime(order.date)}</td>
                  <td className="px-3 py-2.5 text-right text-fg">{formatPrice(Number(order.price))}</td>
                  <td className={clsx('px-3 py-2.5 text-right font-semibold', typeTone(order))}>
                    {order.type}
                  </td>
                  <td className="px-3 py-2.5 text-right text-fg">{formatQty(order.quantity)}</td>
                  <td className="px-3 py-2.5 text-right text-fg">{formatUsd(order.cummulativeQuoteQty)}</td>
                  <td className={clsx('px-3 py-2.5 text-right font-medium', pnlTone(Number(order.pnl)))}>
                    {formatUsd(order.pnl)}
                  </td>
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  );
}

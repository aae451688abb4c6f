import type { OrderBookPage } from '@gridbot/shared';
import { clsx } from 'clsx';
import { Card, CardHeader } from '../../../components/ui/card';
import { Pagination } from '../../../components/ui/pagination';
import { Skeleton } from '../../../components/ui/skeleton';
import { formatDateTime, formatPrice } from '../../../lib/format';
import { formatQty, formatUsd, pnlTone } from '../lib/bot-format';

interface OrderBookProps {
  data: OrderBookPage | undefined;
  loading: boolean;
  page: number;
  onPageChange: (page: number) => void;
}

const headers = ['Date', 'Price', 'Type', 'Quantity', 'Amount($)', 'PnL($)'] as const;

/** Spec 02 Order Book: 20 orders per page, newest first; SELL red, BUY green; PnL coloured by sign. */
export function OrderBook({ data, loading, page, onPageChange }: OrderBookProps) {
  const orders = data?.orders ?? [];
  const pages = data?.pages ?? 1;
  return (
    <Card>
      <CardHeader
        title="Order Book"
        description={data ? `${data.total} ${data.total === 1 ? 'order' : 'orders'}` : undefined}
      />
      <div className="overflow-x-auto">
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
            {loading && !data
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
                    // Orders have no id in the response; time, side, grid and price tell them apart.
                    key={`${order.date}-${order.type}-${order.grid}-${order.price}`}
                    className="border-b border-line/60 tabular-nums last:border-b-0 hover:bg-surface-2/60"
                  >
                    <td className="px-3 py-2.5 whitespace-nowrap text-muted">{formatDateTime(order.date)}</td>
                    <td className="px-3 py-2.5 text-right text-fg">{formatPrice(Number(order.price))}</td>
                    <td
                      className={clsx(
                        'px-3 py-2.5 text-right font-semibold',
                        order.type === 'SELL' ? 'text-down' : 'text-up',
                      )}
                    >
                      {order.type}
                    </td>
                    <td className="px-3 py-2.5 text-right text-fg">{formatQty(order.quantity)}</td>
                    <td className="px-3 py-2.5 text-right text-fg">{formatUsd(order.cummulativeQuoteQty)}</td>
                    <td className={clsx('px-3 py-2.5 text-right font-medium', pnlTone(Number(order.pnl)))}>
                      {formatUsd(order.pnl)}
                    </td>
                  </tr>
                ))}
            {!loading && orders.length === 0 ? (
              <tr>
                <td colSpan={headers.length} className="px-4 py-10 text-center text-muted">
                  No orders yet. The bot's buys and sells appear here.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {data && data.total > 0 ? (
        <div className="border-t border-line px-4 py-3">
          <Pagination label="Order Book pages" page={page} pages={pages} onChange={onPageChange} />
        </div>
      ) : null}
    </Card>
  );
}

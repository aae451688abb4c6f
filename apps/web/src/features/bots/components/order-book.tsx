import { botApiPaths, type OrderBookPage, type OrderBookRow } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { type DataColumn, DataTable } from '../../../components/ui/data-table';
import { Pagination } from '../../../components/ui/pagination';
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

/** Narrower than this (px) a six-column table would scroll sideways: the card lists the orders instead. */
const TABLE_MIN_PX = 544;

const columns: DataColumn<OrderBookRow>[] = [
  { key: 'date', header: 'Date', cell: (o) => formatDateTime(o.date), cellClassName: () => 'text-muted' },
  { key: 'price', header: 'Price', align: 'right', cell: (o) => formatPrice(Number(o.price)) },
  {
    key: 'type',
    header: 'Type',
    align: 'right',
    cell: (o) => <span className={clsx('font-semibold', typeTone(o))}>{o.type}</span>,
  },
  { key: 'quantity', header: 'Quantity', align: 'right', cell: (o) => formatQty(o.quantity) },
  { key: 'amount', header: 'Amount($)', align: 'right', cell: (o) => formatUsd(o.cummulativeQuoteQty) },
  {
    key: 'pnl',
    header: 'PnL($)',
    align: 'right',
    cell: (o) => <span className={clsx('font-medium', pnlTone(Number(o.pnl)))}>{formatUsd(o.pnl)}</span>,
  },
];

/**
 * docs/spec/02-bots-wallet-account.md Order Book: 20 orders per page, newest first; SELL red, BUY green; PnL coloured by sign. On a phone,
 * or in a card narrower than the table (a tablet beside the sidebar), each order is two lines instead of a
 * six-column table that scrolls sideways.
 */
export function OrderBook({ bot, data, loading, page, onPageChange }: OrderBookProps) {
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
  return (
    <Card>
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
      <DataTable
        caption="Order Book"
        columns={columns}
        rows={orders}
        rowKey={orderKey}
        loading={loading && !data}
        emptyText={EMPTY_TEXT}
        cardsBelowPx={TABLE_MIN_PX}
        renderCard={(order) => <OrderLine order={order} />}
        className="tabular-nums"
      />
      {data && data.total > 0 ? (
        <div className="border-t border-line px-4 py-3">
          <Pagination label="Order Book pages" page={page} pages={pages} onChange={onPageChange} />
        </div>
      ) : null}
    </Card>
  );
}

/** One order on two lines for a phone: side, quantity and price; date, PnL and amount. */
function OrderLine({ order }: { order: OrderBookRow }) {
  return (
    <div className="flex items-start justify-between gap-3 px-4 py-2.5">
      <div className="min-w-0">
        <p className="text-sm text-fg">
          <span className={clsx('font-semibold', typeTone(order))}>{order.type}</span>{' '}
          {formatQty(order.quantity)} <span className="text-muted">@</span> {formatPrice(Number(order.price))}
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
    </div>
  );
}

import { clsx } from 'clsx';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { formatPair, formatPrice, formatSignedUsd } from '../../../lib/format';
import { useGridList } from '../api/grid-api';
import { gridErrorMessage } from '../lib/grid-errors';

/** The user's range grids (GET /api/gridbots), running first, each a link to its page. */
export function GridList() {
  const list = useGridList();
  return (
    <Card>
      <CardHeader title="Your grids" description="Running first; open one to see its orders and fills." />
      <div className="p-4 text-sm">
        {list.isPending ? <p className="text-muted">Loading your grids…</p> : null}
        {list.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-fg">
            {gridErrorMessage(list.error, 'Could not load your grids.')}
            <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
              Retry
            </Button>
          </div>
        ) : null}
        {list.data?.length === 0 ? <p className="text-muted">No grid yet: start one with the form.</p> : null}
        {list.data && list.data.length > 0 ? (
          <ul className="divide-y divide-line" aria-label="Your grids">
            {list.data.map((g) => (
              <li key={g.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                <Link
                  to={`/grid-bot/${g.id}`}
                  className="font-semibold text-primary underline-offset-2 hover:underline"
                >
                  {formatPair(g.symbol)} {g.category === 'Future' ? 'Futures' : 'Spot'} grid
                </Link>
                <span className="text-muted tabular-nums">
                  {formatPrice(g.levels[0] ?? 0)}–{formatPrice(g.levels[g.levels.length - 1] ?? 0)} ·{' '}
                  {g.status}
                </span>
                <span
                  className={clsx(
                    'font-semibold tabular-nums',
                    g.totalPnl > 0 ? 'text-up' : g.totalPnl < 0 ? 'text-down' : 'text-fg',
                  )}
                >
                  {formatSignedUsd(g.totalPnl)}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Card>
  );
}

import {
  BOT_STOP_REASONS,
  type BotStopReason,
  botApiPaths,
  historyRowMatches,
  STOP_REASON_TEXTS,
  SYMBOLS,
} from '@gridbot/shared';
import { useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { PageHeader } from '../../../components/ui/page-header';
import { Pagination } from '../../../components/ui/pagination';
import { SelectField } from '../../../components/ui/select-field';
import { Tabs } from '../../../components/ui/tabs';
import { errorMessage } from '../../../lib/api-client';
import { downloadFromApi } from '../../../lib/download';
import { formatPair } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { type HistoryTab, useBotHistory } from '../api/history-queries';
import {
  type HistoryKind,
  type HistorySort,
  HistoryTable,
  sortableHeaders,
  sortHistory,
} from './history-table';

/** docs/spec/01-core-screens.md §9: 20 rows per page, a window of 5 page links. */
export const HISTORY_PAGE_SIZE = 20;

const TABS = [
  { value: 'multigrid', label: 'Multigrid' },
  { value: 'scalping', label: 'Scalping' },
  { value: 'cycle', label: 'Cycle' },
  { value: 'range', label: 'Grid' },
] as const;

const kindOf = (tab: HistoryTab): HistoryKind =>
  tab === 'cycle' ? 'cycle' : tab === 'range' ? 'grid' : 'bots';

interface Filters {
  pair: string;
  from: string;
  to: string;
  outcome: '' | 'profit' | 'loss';
  reason: '' | BotStopReason;
}
const NO_FILTERS: Filters = { pair: '', from: '', to: '', outcome: '', reason: '' };

/** The filters as the export's query string (the server applies the same rule as the screen). */
function exportQuery(tab: HistoryTab, filters: Filters): string {
  const query = new URLSearchParams({ type: tab });
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  return query.toString();
}

/**
 * docs/spec/01-core-screens.md History: stopped bots per kind, stopped cycles and range grids, newest first; filters by pair, stop date,
 * outcome and stop reason, sortable columns, and the fills of the listed bots as CSV.
 */
export function BotHistory() {
  const [tab, setTab] = useState<HistoryTab>('multigrid');
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<HistorySort | null>(null);
  const [exporting, setExporting] = useState(false);
  const history = useBotHistory(tab);
  const rows = useMemo(() => {
    const filter = { ...filters, outcome: filters.outcome || undefined, reason: filters.reason || undefined };
    return sortHistory(
      (history.data ?? []).filter((row) =>
        historyRowMatches({ ...row, totalpnl: Number(row.totalpnl) }, filter),
      ),
      sort,
    );
  }, [history.data, filters, sort]);
  const kind = kindOf(tab);
  const pages = Math.max(1, Math.ceil(rows.length / HISTORY_PAGE_SIZE));
  const current = Math.min(page, pages);
  const pageRows = rows.slice((current - 1) * HISTORY_PAGE_SIZE, current * HISTORY_PAGE_SIZE);

  const change = (next: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };
  const onSort = (header: string) =>
    setSort((s) =>
      s?.header === header ? { header, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { header, dir: 'desc' },
    );
  const onExport = () => {
    setExporting(true);
    downloadFromApi(`${botApiPaths.historyFillsCsv}?${exportQuery(tab, filters)}`, `history-${tab}-fills.csv`)
      .catch((error: unknown) => toast.error(errorMessage(error, 'The export failed. Please try again.')))
      .finally(() => setExporting(false));
  };

  return (
    <>
      <PageHeader
        title="History"
        description="Bots and cycles you have stopped, newest first."
        actions={
          <Button variant="outline" onClick={onExport} loading={exporting} disabled={rows.length === 0}>
            Export fills (CSV)
          </Button>
        }
      />
      <search aria-label="Filter history" className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-6">
        <SelectField label="Pair" value={filters.pair} onChange={(e) => change({ pair: e.target.value })}>
          <option value="">All pairs</option>
          {SYMBOLS.map((pair) => (
            <option key={pair} value={pair}>
              {formatPair(pair)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Outcome"
          value={filters.outcome}
          onChange={(e) => change({ outcome: e.target.value as Filters['outcome'] })}
        >
          <option value="">All</option>
          <option value="profit">Profit</option>
          <option value="loss">Loss</option>
        </SelectField>
        <SelectField
          label="Reason"
          value={filters.reason}
          onChange={(e) => change({ reason: e.target.value as Filters['reason'] })}
        >
          <option value="">All reasons</option>
          {BOT_STOP_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {STOP_REASON_TEXTS[reason]}
            </option>
          ))}
        </SelectField>
        <Input
          label="Stopped from"
          type="date"
          value={filters.from}
          onChange={(e) => change({ from: e.target.value })}
        />
        <Input
          label="Stopped to"
          type="date"
          value={filters.to}
          onChange={(e) => change({ to: e.target.value })}
        />
        <SelectField
          label="Sort by"
          value={sort ? `${sort.header}|${sort.dir}` : ''}
          onChange={(e) => {
            const [header, dir] = e.target.value.split('|');
            setSort(header ? { header, dir: dir === 'asc' ? 'asc' : 'desc' } : null);
          }}
        >
          <option value="">Newest first</option>
          {sortableHeaders(kind).flatMap((header) => [
            <option key={`${header}|desc`} value={`${header}|desc`}>
              {header} ↓
            </option>,
            <option key={`${header}|asc`} value={`${header}|asc`}>
              {header} ↑
            </option>,
          ])}
        </SelectField>
      </search>
      <Tabs
        label="History type"
        items={TABS}
        value={tab}
        onChange={(next) => {
          setTab(next);
          setPage(1);
          // A column of one tab may not be on the next (Grid Profit, Profit Book).
          setSort((s) => (s && sortableHeaders(kindOf(next)).includes(s.header) ? s : null));
        }}
      >
        <HistoryTable
          label={`${TABS.find((t) => t.value === tab)?.label} history`}
          rows={pageRows}
          loading={history.isPending}
          kind={kind}
          sort={sort}
          onSort={onSort}
          emptyText={history.isError ? 'Could not load the history. Please try again.' : 'No Records Found.'}
        />
        {rows.length > 0 ? (
          <Pagination
            className="mt-4"
            label="History pages"
            page={current}
            pages={pages}
            onChange={setPage}
          />
        ) : null}
      </Tabs>
    </>
  );
}

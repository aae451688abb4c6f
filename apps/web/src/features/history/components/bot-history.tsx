import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header';
import { Pagination } from '../../../components/ui/pagination';
import { Tabs } from '../../../components/ui/tabs';
import { type HistoryTab, useBotHistory } from '../api/history-queries';
import { HistoryTable } from './history-table';

/** Spec 01 §9: 20 rows per page, a window of 5 page links. */
export const HISTORY_PAGE_SIZE = 20;

const TABS = [
  { value: 'multigrid', label: 'Multigrid' },
  { value: 'scalping', label: 'Scalping' },
  { value: 'cycle', label: 'Cycle' },
] as const;

/** Spec 01 History: stopped bots per kind, and stopped cycles, newest first. */
export function BotHistory() {
  const [tab, setTab] = useState<HistoryTab>('multigrid');
  const [page, setPage] = useState(1);
  const history = useBotHistory(tab);
  const rows = history.data ?? [];
  const pages = Math.max(1, Math.ceil(rows.length / HISTORY_PAGE_SIZE));
  const current = Math.min(page, pages);
  const pageRows = rows.slice((current - 1) * HISTORY_PAGE_SIZE, current * HISTORY_PAGE_SIZE);

  return (
    <>
      <PageHeader title="History" description="Bots and cycles you have stopped, newest first." />
      <Tabs
        label="History type"
        items={TABS}
        value={tab}
        onChange={(next) => {
          setTab(next);
          setPage(1);
        }}
      >
        <HistoryTable
          label={`${TABS.find((t) => t.value === tab)?.label} history`}
          rows={pageRows}
          loading={history.isPending}
          cycle={tab === 'cycle'}
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

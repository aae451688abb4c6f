import { clsx } from 'clsx';

/** docs/spec/01-core-screens.md §9 / docs/spec/02-bots-wallet-account.md §9: numbered page links in a window of five. */
export const PAGE_WINDOW = 5;

/** The page numbers shown around `page`: up to `size` consecutive pages, kept inside 1..pages. */
export function pageWindow(page: number, pages: number, size = PAGE_WINDOW): number[] {
  if (pages < 1) return [];
  const current = Math.min(Math.max(page, 1), pages);
  const start = Math.max(1, Math.min(current - Math.floor(size / 2), pages - size + 1));
  const end = Math.min(pages, start + size - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

interface PaginationProps {
  page: number;
  pages: number;
  onChange: (page: number) => void;
  /** Accessible name of the navigation landmark, e.g. 'Order book pages'. */
  label: string;
  className?: string;
}

const itemClasses =
  'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2.5 text-sm font-semibold tabular-nums transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-45';

/** Previous, a window of numbered pages, Next. Previous is disabled on page 1 and Next on the last page. */
export function Pagination({ page, pages, onChange, label, className }: PaginationProps) {
  const last = Math.max(pages, 1);
  return (
    <nav aria-label={label} className={clsx('flex flex-wrap items-center justify-center gap-1', className)}>
      <button
        type="button"
        className={clsx(itemClasses, 'text-muted hover:bg-surface-2 hover:text-fg')}
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
      >
        Previous
      </button>
      {pageWindow(page, last).map((n) => (
        <button
          key={n}
          type="button"
          aria-label={`Page ${n}`}
          aria-current={n === page ? 'page' : undefined}
          onClick={() => onChange(n)}
          className={clsx(
            itemClasses,
            n === page ? 'bg-primary text-primary-fg' : 'text-fg hover:bg-surface-2',
          )}
        >
          {n}
        </button>
      ))}
      <button
        type="button"
        className={clsx(itemClasses, 'text-muted hover:bg-surface-2 hover:text-fg')}
        disabled={page >= last}
        onClick={() => onChange(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}

import { ClockIcon } from '../components/ui/icons';
import { PageHeader } from '../components/ui/page-header';

interface PlaceholderScreenProps {
  title: string;
  /** One line: what is not available yet. */
  line: string;
}

/** A route whose feature lands in a later issue: its real title and one honest line, nothing fake. */
export function PlaceholderScreen({ title, line }: PlaceholderScreenProps) {
  return (
    <>
      <PageHeader title={title} />
      <div className="flex items-center gap-3 rounded-xl border border-dashed border-line bg-surface px-5 py-4 text-sm text-muted">
        <ClockIcon className="size-5 shrink-0 text-primary" />
        <p>{line}</p>
      </div>
    </>
  );
}

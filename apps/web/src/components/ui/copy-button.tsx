import { clsx } from 'clsx';
import { useEffect, useState } from 'react';
import { toast } from '../../lib/toast';
import { CheckCircleIcon, CopyIcon } from './icons';

interface CopyButtonProps {
  value: string;
  /** Accessible name, e.g. 'Copy address'. */
  label: string;
  /** Toast after a successful copy. */
  successMessage: string;
  className?: string;
}

const FAILED = 'Could not copy. Please copy it by hand.';

/** An icon button that puts `value` on the clipboard and says so in a toast. */
export function CopyButton({ value, label, successMessage, className }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const id = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(id);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(successMessage);
    } catch {
      toast.error(FAILED);
    }
  };

  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={() => void copy()}
      className={clsx(
        'inline-flex size-9 shrink-0 items-center justify-center rounded-lg border border-line text-muted transition-colors hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring',
        copied && 'text-up',
        className,
      )}
    >
      {copied ? <CheckCircleIcon className="size-4.5" /> : <CopyIcon className="size-4.5" />}
    </button>
  );
}

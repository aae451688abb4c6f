import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CheckCircleIcon, CopyIcon } from '../../../components/ui/icons';
import { toast } from '../../../lib/toast';

interface CopyButtonProps {
  value: string;
  /** Accessible name, e.g. 'Copy IP address'. */
  label: string;
  successMessage: string;
}

/** Copies `value` to the clipboard and says so for two seconds. */
export function CopyButton({ value, label, successMessage }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(successMessage);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error('Could not copy. Select the text and copy it by hand.');
    }
  };

  return (
    <Button variant="outline" size="sm" onClick={copy} aria-label={label} disabled={!value}>
      {copied ? <CheckCircleIcon className="size-4 text-up" /> : <CopyIcon className="size-4" />}
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}

import { clsx } from 'clsx';
import { shortHash } from '../../../lib/format';
import { txUrl } from '../lib/platform-format';

/** A transaction hash, shortened, that opens on BscScan; the whole hash shows as its title. */
export function TxHashLink({ hash, className }: { hash: string; className?: string }) {
  // A simulated deposit (paper installs) never touched a chain: labelled, with nothing to open.
  if (hash.startsWith('SIMULATED-'))
    return (
      <span title={hash} className={clsx('font-semibold text-muted', className)}>
        Simulated
      </span>
    );
  return (
    <a
      href={txUrl(hash)}
      target="_blank"
      rel="noreferrer"
      title={hash}
      className={clsx('font-mono text-primary hover:underline', className)}
    >
      {shortHash(hash, 10, 8)}
    </a>
  );
}

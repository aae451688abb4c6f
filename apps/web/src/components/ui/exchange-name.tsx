import { clsx } from 'clsx';

interface ExchangeNameProps {
  /** Binance, Bybit, OKX or Paper. */
  name: string;
  testId: string;
  className?: string;
}

/** "Exchange Binance": where a bot or range grid trades (ours), on their pages' headers. */
export function ExchangeName({ name, testId, className }: ExchangeNameProps) {
  return (
    <span className={clsx('text-muted', className)}>
      Exchange{' '}
      <span className="font-semibold text-fg" data-testid={testId}>
        {name}
      </span>
    </span>
  );
}

import type { ReactNode } from 'react';
import { formatPair } from '../../lib/format';
import type { InputProps } from './input';
import { NumberInput } from './number-input';

/** The options of a market category select; `placeholder` adds an empty first choice. */
export function CategoryOptions({ placeholder }: { placeholder?: string }) {
  return (
    <>
      {placeholder ? <option value="">{placeholder}</option> : null}
      <option value="Spot">Spot</option>
      <option value="Future">Future</option>
    </>
  );
}

/** 'Select pair', then each symbol as BASE/USDT. */
export function PairOptions({ pairs }: { pairs: readonly string[] }) {
  return (
    <>
      <option value="">Select pair</option>
      {pairs.map((pair) => (
        <option key={pair} value={pair}>
          {formatPair(pair)}
        </option>
      ))}
    </>
  );
}

/** Futures leverage: whole numbers from 1x to 10x, the start schemas' range. */
export function LeverageInput(props: Omit<InputProps, 'label'>) {
  return <NumberInput whole label="Leverage (x)" hint="1x to 10x" {...props} />;
}

/** The market's live price at the top of an edit dialog. */
export function LivePriceRow({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between rounded-lg bg-surface-2 px-4 py-3 text-sm">
      <span className="text-muted">Live Price</span>
      <span data-testid={testId} className="font-bold text-fg tabular-nums">
        {children}
      </span>
    </div>
  );
}

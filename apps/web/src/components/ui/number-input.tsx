import { Input, type InputProps } from './input';

export interface NumberInputProps extends Omit<InputProps, 'type' | 'inputMode'> {
  /** A count (grids, cycles, leverage): the digit keypad instead of the decimal one. */
  whole?: boolean;
}

/**
 * Every numeric field of the product. The text stays exactly as typed: the field's schema refuses a sign, an
 * exponent, stray characters or an out-of-range value with its message (packages/shared common/number-text.ts),
 * so "2.5" never becomes 25 and "-5" never becomes 5. Not `type="number"`: browsers let it take "1e12" and "-3",
 * and hand a value they cannot read over as '', so the form could only say "required".
 */
export function NumberInput({ whole = false, ...props }: NumberInputProps) {
  return (
    <Input
      type="text"
      inputMode={whole ? 'numeric' : 'decimal'}
      autoComplete="off"
      spellCheck={false}
      {...props}
    />
  );
}

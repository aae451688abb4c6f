import { clsx } from 'clsx';
import { type Ref, useId, useState } from 'react';

export const OTP_DIGITS = 6;

/** docs/spec/02-bots-wallet-account.md §5: non-digits are stripped; at most six digits are kept (a pasted "123 456" works). */
export function sanitizeOtp(value: string): string {
  return value.replace(/\D/g, '').slice(0, OTP_DIGITS);
}

interface OtpInputProps {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  label?: string;
  error?: string;
  disabled?: boolean;
  autoFocus?: boolean;
  name?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * One real input (labelled, autocomplete="one-time-code" so phones offer the mailed code) drawn over six
 * slots. The input stays the thing users, screen readers and tests type into.
 */
export function OtpInput({
  value,
  onChange,
  onBlur,
  label = 'Verification code',
  error,
  disabled,
  autoFocus,
  name,
  ref,
}: OtpInputProps) {
  const id = useId();
  const [focused, setFocused] = useState(false);
  const slots = Array.from({ length: OTP_DIGITS }, (_, index) => value[index] ?? '');
  const activeIndex = Math.min(value.length, OTP_DIGITS - 1);
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-fg">
        {label}
      </label>
      <div className="relative">
        <div className="grid grid-cols-6 gap-2 sm:gap-3" aria-hidden="true">
          {slots.map((digit, index) => (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: the slots are positions, not items
              key={index}
              className={clsx(
                'flex h-13 items-center justify-center rounded-lg border bg-surface font-mono text-2xl font-semibold text-fg transition-[border-color,box-shadow] duration-150 sm:h-14',
                error ? 'border-down' : 'border-line',
                focused && index === activeIndex && !disabled && 'border-primary ring-3 ring-ring/40',
                disabled && 'opacity-60',
              )}
            >
              {digit ||
                (focused && index === activeIndex ? <span className="h-6 w-px animate-pulse bg-fg" /> : '')}
            </div>
          ))}
        </div>
        <input
          ref={ref}
          id={id}
          name={name}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          // biome-ignore lint/a11y/noAutofocus: the code is the only thing this page asks for
          autoFocus={autoFocus}
          disabled={disabled}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(sanitizeOtp(event.target.value))}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            onBlur?.();
          }}
          className="absolute inset-0 size-full cursor-text bg-transparent text-transparent caret-transparent opacity-0 outline-none selection:bg-transparent"
        />
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-down">
          {error}
        </p>
      ) : null}
    </div>
  );
}

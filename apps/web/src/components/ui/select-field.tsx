import { clsx } from 'clsx';
import { type ReactNode, type Ref, type SelectHTMLAttributes, useId } from 'react';
import { ChevronDownIcon } from './icons';
import { Field } from './input';

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

/** A native select styled like the kit's inputs, with its label and error under it. */
export function SelectField({ label, error, hint, className, children, ref, ...props }: SelectFieldProps) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <div className="relative">
        <select
          ref={ref}
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
          className={clsx(
            'block h-11 w-full appearance-none rounded-lg border bg-surface pr-10 pl-3 text-sm text-fg',
            'transition-[border-color,box-shadow] duration-150 focus:outline-none focus:ring-3 focus:ring-ring/40',
            'disabled:cursor-not-allowed disabled:opacity-60',
            error ? 'border-down focus:border-down' : 'border-line focus:border-primary',
            className,
          )}
          {...props}
        >
          {children}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted" />
      </div>
    </Field>
  );
}

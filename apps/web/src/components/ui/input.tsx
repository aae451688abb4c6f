import { clsx } from 'clsx';
import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
  useId,
  useState,
} from 'react';
import { EyeIcon, EyeOffIcon } from './icons';

const controlClasses = clsx(
  'block w-full rounded-lg border bg-surface px-3 text-sm text-fg placeholder:text-muted/70',
  'transition-[border-color,box-shadow] duration-150 focus:outline-none focus:ring-3 focus:ring-ring/40',
  'disabled:cursor-not-allowed disabled:opacity-60',
);

function stateClasses(invalid: boolean) {
  return invalid ? 'border-down focus:border-down focus:ring-down/25' : 'border-line focus:border-primary';
}

interface FieldProps {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  /** Right side of the label row (e.g. a 'Forgot password?' link). */
  labelAside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** Label, control, then the error (or a hint) tied to the control with aria-describedby. */
export function Field({ id, label, error, hint, labelAside, className, children }: FieldProps) {
  return (
    <div className={clsx('space-y-1.5', className)}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {labelAside}
      </div>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium text-down">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  if (error) return `${id}-error`;
  return hint ? `${id}-hint` : undefined;
}

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  labelAside?: ReactNode;
  /** Password inputs get a show/hide toggle. */
  revealable?: boolean;
  /** Shown inside the control on the right (e.g. a MAX button); give the input room with `className="pr-…"`. */
  end?: ReactNode;
  containerClassName?: string;
  id?: string;
  ref?: Ref<HTMLInputElement>;
}

export function Input({
  label,
  error,
  hint,
  labelAside,
  revealable = false,
  end,
  containerClassName,
  className,
  id: givenId,
  type = 'text',
  ref,
  ...props
}: InputProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const [revealed, setRevealed] = useState(false);
  const effectiveType = revealable && revealed ? 'text' : type;
  return (
    <Field
      id={id}
      label={label}
      error={error}
      hint={hint}
      labelAside={labelAside}
      className={containerClassName}
    >
      <div className="relative">
        <input
          ref={ref}
          id={id}
          type={effectiveType}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          className={clsx(controlClasses, 'h-11', stateClasses(!!error), revealable && 'pr-11', className)}
          {...props}
        />
        {revealable ? (
          <button
            type="button"
            onClick={() => setRevealed((value) => !value)}
            // 'Show'/'Hide' rather than 'Show password': a query for the label 'Password' finds only the input.
            aria-label={revealed ? 'Hide' : 'Show'}
            title={revealed ? 'Hide password' : 'Show password'}
            aria-pressed={revealed}
            aria-controls={id}
            className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-muted hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
          >
            {revealed ? <EyeOffIcon className="size-4.5" /> : <EyeIcon className="size-4.5" />}
          </button>
        ) : null}
        {end && !revealable ? (
          <div className="absolute inset-y-0 right-0 flex items-center pr-1.5">{end}</div>
        ) : null}
      </div>
    </Field>
  );
}

export interface TextareaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  labelAside?: ReactNode;
  id?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

export function Textarea({
  label,
  error,
  hint,
  labelAside,
  className,
  id: givenId,
  ref,
  ...props
}: TextareaProps) {
  const autoId = useId();
  const id = givenId ?? autoId;
  return (
    <Field id={id} label={label} error={error} hint={hint} labelAside={labelAside}>
      <textarea
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={clsx(controlClasses, 'min-h-28 resize-y py-2.5', stateClasses(!!error), className)}
        {...props}
      />
    </Field>
  );
}

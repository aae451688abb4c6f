import type { ButtonHTMLAttributes } from 'react';

/** The small MAX / ALL button inside an amount input. */
export function AmountButton(props: ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      className="h-8 rounded-md px-2.5 text-xs font-bold tracking-wide text-primary hover:bg-primary-soft focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50"
      {...props}
    />
  );
}

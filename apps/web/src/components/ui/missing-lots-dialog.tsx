import type { MissingLotsChoice } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { Button } from './button';
import { Modal } from './modal';

const CHOICES: readonly { value: MissingLotsChoice; label: string; detail: string }[] = [
  {
    value: 'rebuy',
    label: 'Re-buy the missing quantity',
    detail: 'Buys the missing coins at market with your free spot USDT and carries on as before.',
  },
  {
    value: 'drop',
    label: 'Drop the missing lots',
    detail:
      'Forgets the coins that are gone, books them at the current price as a loss or profit, and trades on with what your account holds.',
  },
];

/**
 * Resume of a bot or cycle whose coins were sold outside the platform: the user picks what it does about the
 * missing quantity, then confirms; it resumes once that is done.
 */
export function MissingLotsDialog({
  open,
  onClose,
  reason,
  busy,
  error,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  reason: string;
  busy: boolean;
  /** Why the last choice was refused (a re-buy the free USDT cannot pay…), shown in the dialog. */
  error: string | null;
  onConfirm: (choice: MissingLotsChoice) => void;
}) {
  const [choice, setChoice] = useState<MissingLotsChoice | null>(null);
  const name = useId();
  return (
    <Modal
      open={open}
      onClose={busy ? undefined : onClose}
      title="Resume trading"
      description={reason}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button
            onClick={() => choice && onConfirm(choice)}
            loading={busy}
            disabled={choice === null || busy}
          >
            Confirm and resume
          </Button>
        </>
      }
    >
      <fieldset className="space-y-3 text-sm">
        <legend className="mb-2 text-fg">What should happen to the missing coins?</legend>
        {CHOICES.map((option) => (
          <label
            key={option.value}
            className={clsx(
              'flex cursor-pointer gap-3 rounded-lg border p-3',
              choice === option.value ? 'border-primary bg-primary/10' : 'border-line',
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={choice === option.value}
              onChange={() => setChoice(option.value)}
              className="mt-1"
            />
            <span>
              <span className="block font-semibold text-fg">{option.label}</span>
              <span className="mt-0.5 block text-muted">{option.detail}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {error ? (
        <p role="alert" className="mt-3 rounded-lg bg-down/10 p-3 text-sm text-down">
          {error}
        </p>
      ) : null}
    </Modal>
  );
}

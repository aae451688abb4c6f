import type { MissingLotsChoice } from '@gridbot/shared';
import { clsx } from 'clsx';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';

const CHOICES: readonly { value: MissingLotsChoice; label: string; detail: string }[] = [
  {
    value: 'rebuy',
    label: 'Re-buy the missing quantity',
    detail: 'The bot buys the missing coins at market with your USDT and keeps its grids as they are.',
  },
  {
    value: 'drop',
    label: 'Drop the missing lots',
    detail:
      'The bot forgets the coins that are gone, books them at the current price as a loss or profit, and trades on with what your account holds.',
  },
];

/**
 * Resume of a bot whose coins were sold outside the platform: the user picks what the bot does about the
 * missing quantity, then confirms; the bot resumes once it is done.
 */
export function MissingLotsDialog({
  open,
  onClose,
  reason,
  busy,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  reason: string;
  busy: boolean;
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
        <legend className="mb-2 text-fg">What should the bot do about the missing coins?</legend>
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
    </Modal>
  );
}

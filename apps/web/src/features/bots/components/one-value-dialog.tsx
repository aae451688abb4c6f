import { type FormEvent, useEffect, useState } from 'react';
import { Input, type InputProps } from '../../../components/ui/input';
import { Modal } from '../../../components/ui/modal';
import { toast } from '../../../lib/toast';
import { type EditMutation, type SaveOrReset, useSaveOrReset } from '../hooks/use-save-or-reset';
import { reloadPageSoon } from '../lib/reload-page';
import { SaveResetButtons } from './save-reset-buttons';

interface OneValueDialogProps<Input> {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  /** The field's text each time the dialog opens. */
  initialValue: () => string;
  /** The message for a value that may not be saved, or undefined. */
  check: (text: string) => string | undefined;
  edit: EditMutation<Input>;
  /** The edit's input for the saved number, or for Reset (null). */
  toInput: (value: number | null) => Input;
  toasts: Record<SaveOrReset | 'failed', string>;
  field: Omit<InputProps, 'value' | 'onChange' | 'error'>;
}

/** A bot setting that is one number (overbuy grid, profit book): Save checks it, Reset clears it; both reload. */
export function OneValueDialog<Input>({
  open,
  onClose,
  title,
  description,
  initialValue,
  check,
  edit,
  toInput,
  toasts,
  field,
}: OneValueDialogProps<Input>) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const { busy, run } = useSaveOrReset(edit);

  // biome-ignore lint/correctness/useExhaustiveDependencies: start from the current value on each opening
  useEffect(() => {
    if (!open) return;
    setValue(initialValue());
    setError(undefined);
  }, [open]);

  const send = (action: SaveOrReset) => {
    run(action, toInput(action === 'reset' ? null : Number(value.trim())), {
      onSuccess: () => {
        toast.success(toasts[action]);
        onClose();
        // docs/spec/02-bots-wallet-account.md §8: the page reloads after these saves.
        reloadPageSoon(toasts[action]);
      },
      onError: () => {
        toast.error(toasts.failed);
      },
    });
  };

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    const problem = check(value);
    setError(problem);
    if (!problem) send('save');
  };

  return (
    <Modal open={open} onClose={busy ? undefined : onClose} title={title} description={description} size="sm">
      <form noValidate onSubmit={onSave} className="space-y-4">
        <Input {...field} value={value} onChange={(event) => setValue(event.target.value)} error={error} />
        <SaveResetButtons busy={busy} onReset={() => send('reset')} />
      </form>
    </Modal>
  );
}

import { clsx } from 'clsx';
import { Button } from '../../../components/ui/button';
import type { SaveOrReset } from '../hooks/use-save-or-reset';

interface SaveResetButtonsProps {
  busy: SaveOrReset | null;
  onReset: () => void;
  className?: string;
}

/** The footer of the bot edit dialogs: Reset, then Save Changes (the form's submit). */
export function SaveResetButtons({ busy, onReset, className }: SaveResetButtonsProps) {
  return (
    <div className={clsx('flex justify-end gap-2', className)}>
      <Button variant="outline" onClick={onReset} loading={busy === 'reset'} disabled={busy !== null}>
        Reset
      </Button>
      <Button type="submit" loading={busy === 'save'} disabled={busy !== null}>
        Save Changes
      </Button>
    </div>
  );
}

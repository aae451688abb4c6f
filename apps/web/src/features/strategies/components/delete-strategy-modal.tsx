import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';

interface DeleteStrategyModalProps {
  name: string | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before a strategy is deleted (docs/spec/01-core-screens.md My Strategies: delete with confirmation). */
export function DeleteStrategyModal({ name, busy, onCancel, onConfirm }: DeleteStrategyModalProps) {
  return (
    <Modal
      open={name !== null}
      onClose={busy ? undefined : onCancel}
      size="sm"
      title="Delete strategy?"
      footer={
        <>
          <Button variant="outline" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" loading={busy} onClick={onConfirm}>
            {busy ? 'Deleting...' : 'Delete'}
          </Button>
        </>
      }
    >
      <p className="text-sm text-muted">
        <span className="font-semibold text-fg">{name}</span> will be deleted. This cannot be undone.
      </p>
    </Modal>
  );
}

import { useState } from 'react';

export type SaveOrReset = 'save' | 'reset';

interface EditHandlers {
  onSuccess: () => void;
  onError: (error: unknown) => void;
}

export interface EditMutation<Input> {
  mutate(input: Input, options: EditHandlers & { onSettled: () => void }): void;
}

/**
 * The Save Changes and Reset of a bot dialog run one edit: `busy` names the one running, so both buttons
 * lock and that one spins until the edit settles.
 */
export function useSaveOrReset<Input>(edit: EditMutation<Input>) {
  const [busy, setBusy] = useState<SaveOrReset | null>(null);
  const run = (action: SaveOrReset, input: Input, handlers: EditHandlers) => {
    setBusy(action);
    edit.mutate(input, { ...handlers, onSettled: () => setBusy(null) });
  };
  return { busy, run };
}

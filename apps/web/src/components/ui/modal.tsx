import { type ReactNode, type RefObject, useState } from 'react';
import { deferredModule, useDeferredModule } from '../../lib/deferred-module';

export interface ModalProps {
  open: boolean;
  /** Without it the modal cannot be dismissed (no Escape, no backdrop click, no close button). */
  onClose?: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  initialFocusRef?: RefObject<HTMLElement | null>;
}

/**
 * The dialog's code (Radix Dialog with its focus trap, scroll lock and layering, about 10 KB compressed) is not
 * part of any page's first render: it loads with the first dialog that opens, or at idle time (`preloadModal`).
 */
const dialogModule = deferredModule(() => import('./modal-dialog'));
export const preloadModal = dialogModule.preload;

/**
 * A modal dialog (components/ui/modal-dialog.tsx): focus trapped inside, the page behind inert and
 * unscrollable, Escape and a click on the backdrop close it. Nothing is rendered, and nothing loaded, until it
 * first opens; from then on it stays rendered for its exit transitions.
 */
export function Modal(props: ModalProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  const ModalDialog = useDeferredModule(dialogModule, opened)?.default;
  return ModalDialog ? <ModalDialog {...props} /> : null;
}

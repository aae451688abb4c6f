import * as Dialog from '@radix-ui/react-dialog';
import { clsx } from 'clsx';
import { useRef } from 'react';
import { CloseIcon } from './icons';
import type { ModalProps } from './modal';
import { usePresence } from './use-presence';

/** docs/spec/01-core-screens.md §9: the panel moves in 300 ms, the backdrop fades in 150 ms. */
const MODAL_TRANSITION_MS = 300;

const widths = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl' };

/**
 * A modal dialog on Radix UI's Dialog (focus trapped inside, the page behind inert and unscrollable, Escape and a
 * click on the backdrop close it). It stays mounted for the exit transition, and focus returns to the element
 * that had it when the dialog opened (the screens open dialogs from their own buttons, not a Radix trigger).
 */
export default function ModalDialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = 'md',
  initialFocusRef,
}: ModalProps) {
  const { mounted, visible } = usePresence(open, MODAL_TRANSITION_MS);
  const opener = useRef<HTMLElement | null>(null);

  return (
    <Dialog.Root
      open={mounted}
      onOpenChange={(next) => {
        if (!next) onClose?.();
      }}
    >
      <Dialog.Portal>
        <div className="fixed inset-0 z-50 flex items-end justify-center p-0 sm:items-center sm:p-6">
          <Dialog.Overlay
            className={clsx(
              'absolute inset-0 bg-slate-950/60 backdrop-blur-[2px] transition-opacity duration-150',
              visible ? 'opacity-100' : 'opacity-0',
            )}
          />
          <Dialog.Content
            // Without a description the dialog is described by nothing (Radix would point at a missing element).
            {...(description ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={(event) => {
              opener.current = document.activeElement as HTMLElement | null;
              if (initialFocusRef?.current) {
                event.preventDefault();
                initialFocusRef.current.focus({ preventScroll: true });
              }
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (opener.current?.isConnected) opener.current.focus({ preventScroll: true });
            }}
            className={clsx(
              'relative flex max-h-[92dvh] w-full flex-col overflow-hidden rounded-t-2xl border border-line bg-surface shadow-2xl sm:rounded-2xl',
              'transition-[opacity,transform] duration-300 ease-out focus:outline-none',
              visible
                ? 'translate-y-0 opacity-100 sm:scale-100'
                : 'translate-y-6 opacity-0 sm:translate-y-2 sm:scale-95',
              widths[size],
            )}
          >
            <div className="flex items-start justify-between gap-4 border-b border-line px-5 py-4 sm:px-6">
              <div className="min-w-0">
                <Dialog.Title className="text-lg font-semibold text-fg">{title}</Dialog.Title>
                {description ? (
                  <Dialog.Description className="mt-1 text-sm text-muted">{description}</Dialog.Description>
                ) : null}
              </div>
              {onClose ? (
                <Dialog.Close
                  aria-label="Close"
                  className="-mr-1 rounded-md p-1 text-muted hover:bg-surface-2 hover:text-fg"
                >
                  <CloseIcon className="size-5" />
                </Dialog.Close>
              ) : null}
            </div>
            <div className="overflow-y-auto px-5 py-4 sm:px-6">{children}</div>
            {footer ? (
              <div className="flex flex-wrap justify-end gap-2 border-t border-line bg-surface-2/50 px-5 py-3.5 sm:px-6">
                {footer}
              </div>
            ) : null}
          </Dialog.Content>
        </div>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

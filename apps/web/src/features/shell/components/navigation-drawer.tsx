import * as Dialog from '@radix-ui/react-dialog';
import { clsx } from 'clsx';
import { type ReactNode, useRef } from 'react';
import { CloseIcon } from '../../../components/ui/icons';
import { usePresence } from '../../../components/ui/use-presence';

interface NavigationDrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}

/** The navigation drawer below 768 px (docs/spec/01-core-screens.md Shell), on Radix UI's Dialog. */
export default function NavigationDrawer({ open, onOpenChange, children }: NavigationDrawerProps) {
  const drawer = usePresence(open, 300);
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={drawer.mounted} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <div className={clsx('fixed inset-0 top-9 z-40 md:hidden', !open && 'pointer-events-none')}>
          <Dialog.Overlay
            className={clsx(
              'absolute inset-0 bg-slate-950/60 transition-opacity duration-150',
              drawer.visible ? 'opacity-100' : 'opacity-0',
            )}
          />
          <Dialog.Content
            aria-describedby={undefined}
            inert={!open}
            onOpenAutoFocus={() => {
              opener.current = document.activeElement as HTMLElement | null;
            }}
            onCloseAutoFocus={(event) => {
              // Focus goes back to where it was (the hamburger) when the drawer closes.
              event.preventDefault();
              if (opener.current?.isConnected) opener.current.focus();
            }}
            className={clsx(
              'absolute inset-y-0 left-0 w-72 max-w-[85vw] border-r border-line bg-surface shadow-2xl transition-transform duration-300 ease-out focus:outline-none',
              drawer.visible ? 'translate-x-0' : '-translate-x-full',
            )}
          >
            <Dialog.Title className="sr-only">Navigation</Dialog.Title>
            <Dialog.Close
              aria-label="Close navigation"
              className="absolute top-3.5 right-3 flex size-9 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
            >
              <CloseIcon className="size-5" />
            </Dialog.Close>
            {children}
          </Dialog.Content>
        </div>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

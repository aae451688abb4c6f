import { lazy, Suspense, useState } from 'react';
import { type ProfileMenuProps, triggerParts } from './account-menu-trigger';

// The menu (Radix UI's DropdownMenu and its positioning) loads beside the page, not before it: until it has,
// the same-looking button stands in, and a press on it opens the menu as soon as it is there.
const AccountMenu = lazy(() => import('./account-menu'));

/** The account menu in the header: My Wallet, API Setting, Security, … and Logout. */
export function ProfileMenu(props: ProfileMenuProps) {
  const [pressed, setPressed] = useState(false);
  const trigger = triggerParts(props);
  return (
    <Suspense
      fallback={
        <button
          type="button"
          aria-label={trigger.label}
          aria-haspopup="menu"
          aria-expanded={false}
          data-state={pressed ? 'open' : 'closed'}
          onClick={() => setPressed(true)}
          className={trigger.className}
        >
          {trigger.children}
        </button>
      }
    >
      <AccountMenu {...props} defaultOpen={pressed} />
    </Suspense>
  );
}

import { ChevronDownIcon } from '../../../components/ui/icons';
import { deferredModule, useStandIn } from '../../../lib/deferred-module';

export interface ProfileMenuProps {
  email: string;
  username: string;
  onLogout: () => void;
}

// The visible username is part of the name (WCAG 2.5.3): a voice user can say what they see.
export const triggerLabel = (username: string) => (username ? `Account menu, ${username}` : 'Account menu');
export const triggerClasses =
  'group flex items-center gap-2 rounded-lg py-1 pr-1.5 pl-1 transition-colors hover:bg-surface-2';

/** What the account menu's button shows: the initial, the username from 1024 px, a chevron. */
export function TriggerFace({ email, username }: Pick<ProfileMenuProps, 'email' | 'username'>) {
  const initial = (username || email || '?').charAt(0).toUpperCase();
  return (
    <>
      {/* The initial is drawn by CSS, not text: the button's visible words stay the username alone, which its
          name contains (a name must include the visible label). */}
      <span
        aria-hidden="true"
        data-initial={initial}
        className="flex size-8 items-center justify-center rounded-full bg-primary-solid text-sm font-bold text-primary-fg before:content-[attr(data-initial)]"
      />
      <span className="hidden max-w-36 truncate text-sm font-semibold text-fg lg:block">{username}</span>
      <ChevronDownIcon className="size-4 text-muted transition-transform group-data-[state=open]:rotate-180" />
    </>
  );
}

/** The menu's code (Radix DropdownMenu with its positioning, about 15 KB compressed): not in the first render. */
const menuModule = deferredModule(() => import('./account-menu'));
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * The account menu (account-menu.tsx). The page shows a stand-in button that looks and is named the same;
 * pressing it draws the menu in its place, open (its code loads when the browser is idle, or then).
 */
export function ProfileMenu(props: ProfileMenuProps) {
  const { wanted, loaded, open, triggerProps } = useStandIn(menuModule);
  const AccountMenu = loaded?.default;

  const button = (
    <button
      type="button"
      aria-label={triggerLabel(props.username)}
      aria-haspopup="menu"
      aria-expanded={false}
      className={triggerClasses}
      {...triggerProps}
      onKeyDown={(event) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        open(true);
      }}
    >
      <TriggerFace email={props.email} username={props.username} />
    </button>
  );
  if (!wanted || !AccountMenu) return button;
  return <AccountMenu {...props} focusFirstItem={wanted.byKeyboard} />;
}

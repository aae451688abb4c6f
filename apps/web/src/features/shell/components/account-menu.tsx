import * as Menu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import { useRef } from 'react';
import { Link } from 'react-router';
import { LogoutIcon } from '../../../components/ui/icons';
import { profileMenuItems } from './nav-items';

import { type ProfileMenuProps, TriggerFace, triggerClasses, triggerLabel } from './profile-menu';

interface AccountMenuProps extends ProfileMenuProps {
  /** The stand-in was pressed from the keyboard: the first item takes focus, as Radix does for a keyboard opening. */
  focusFirstItem?: boolean;
}

const itemClasses =
  'flex w-full cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-surface-2 data-[highlighted]:bg-surface-2';

/**
 * The account menu on Radix UI's DropdownMenu (menu button pattern): arrows move (wrapping at the ends), Escape closes and returns
 * focus to the button, a click outside closes. Not modal: a click outside also does what it clicks. It replaces the
 * stand-in button when that is pressed (profile-menu.tsx), so it opens at once.
 */
export default function AccountMenu({ email, username, onLogout, focusFirstItem = false }: AccountMenuProps) {
  const firstItemPending = useRef(focusFirstItem);
  return (
    <Menu.Root modal={false} defaultOpen>
      <Menu.Trigger aria-label={triggerLabel(username)} className={triggerClasses}>
        <TriggerFace email={email} username={username} />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          aria-label="Account"
          onFocus={(event) => {
            // Radix focuses the menu itself on opening; a keyboard opening that loaded this code moves on to
            // the first item, as Radix's own keyboard opening does.
            if (!firstItemPending.current || event.target !== event.currentTarget) return;
            firstItemPending.current = false;
            event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
          }}
          loop
          align="end"
          sideOffset={8}
          collisionPadding={8}
          className="z-50 w-64 origin-top-right rounded-xl border border-line bg-surface p-1.5 shadow-card"
        >
          <div className="mb-1 border-b border-line px-3 pt-2 pb-3">
            <p className="truncate text-sm font-semibold text-fg">{username}</p>
            <p className="truncate text-xs text-muted">{email}</p>
          </div>
          {profileMenuItems().map((item) => (
            <Menu.Item key={item.to} asChild>
              <Link to={item.to} className={clsx(itemClasses, 'text-fg')}>
                <item.icon className="size-4.5 text-muted" />
                {item.label}
              </Link>
            </Menu.Item>
          ))}
          <Menu.Separator className="my-1 border-t border-line" />
          <Menu.Item onSelect={onLogout} className={clsx(itemClasses, 'text-down')}>
            <LogoutIcon className="size-4.5" />
            Logout
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

import * as Menu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { LogoutIcon } from '../../../components/ui/icons';
import { type ProfileMenuProps, triggerParts } from './account-menu-trigger';
import { profileMenuItems } from './nav-items';

const itemClasses =
  'flex w-full cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-surface-2 data-[highlighted]:bg-surface-2';

/**
 * The account menu on Radix UI's DropdownMenu (menu button pattern): arrows move (wrapping at the ends), Escape closes and returns
 * focus to the button, a click outside closes. Not modal: a click outside also does what it clicks.
 */
export default function AccountMenu({
  email,
  username,
  onLogout,
  defaultOpen,
}: ProfileMenuProps & { defaultOpen?: boolean }) {
  const trigger = triggerParts({ email, username });
  return (
    <Menu.Root modal={false} defaultOpen={defaultOpen}>
      <Menu.Trigger aria-label={trigger.label} className={trigger.className}>
        {trigger.children}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          aria-label="Account"
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

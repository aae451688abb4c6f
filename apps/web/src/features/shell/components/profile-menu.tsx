import * as Menu from '@radix-ui/react-dropdown-menu';
import { clsx } from 'clsx';
import { Link } from 'react-router';
import { ChevronDownIcon, LogoutIcon } from '../../../components/ui/icons';
import { profileMenuItems } from './nav-items';

interface ProfileMenuProps {
  email: string;
  username: string;
  onLogout: () => void;
}

const itemClasses =
  'flex w-full cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-surface-2 data-[highlighted]:bg-surface-2';

/**
 * The account menu on Radix UI's DropdownMenu (menu button pattern): arrows move (wrapping at the ends), Escape closes and returns
 * focus to the button, a click outside closes. Not modal: a click outside also does what it clicks.
 */
export function ProfileMenu({ email, username, onLogout }: ProfileMenuProps) {
  const initial = (username || email || '?').charAt(0).toUpperCase();
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger
        // The visible username is part of the name (WCAG 2.5.3): a voice user can say what they see.
        aria-label={username ? `Account menu, ${username}` : 'Account menu'}
        className="group flex items-center gap-2 rounded-lg py-1 pr-1.5 pl-1 transition-colors hover:bg-surface-2"
      >
        {/* The initial is drawn by CSS, not text: the button's visible words stay the username alone, which its
            name contains (a name must include the visible label). */}
        <span
          aria-hidden="true"
          data-initial={initial}
          className="flex size-8 items-center justify-center rounded-full bg-primary-solid text-sm font-bold text-primary-fg before:content-[attr(data-initial)]"
        />
        <span className="hidden max-w-36 truncate text-sm font-semibold text-fg lg:block">{username}</span>
        <ChevronDownIcon className="size-4 text-muted transition-transform group-data-[state=open]:rotate-180" />
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

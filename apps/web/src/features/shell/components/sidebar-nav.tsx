import { clsx } from 'clsx';
import { memo, useId, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { ChevronDownIcon, LogoutIcon } from '../../../components/ui/icons';
import { Logo } from '../../../components/ui/logo';
import { isGroup, type NavGroupItem, type NavLinkItem, sidebarItems } from './nav-items';

const rowClasses =
  'group flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors duration-150';

function isActive(pathname: string, item: NavLinkItem): boolean {
  const matches = (path: string) => pathname === path || pathname.startsWith(`${path}/`);
  return matches(item.to) || (item.alsoActiveOn ?? []).some(matches);
}

function SidebarLink({ item, nested = false }: { item: NavLinkItem; nested?: boolean }) {
  const { pathname } = useLocation();
  const active = isActive(pathname, item);
  return (
    <NavLink
      to={item.to}
      aria-current={active ? 'page' : undefined}
      className={clsx(
        rowClasses,
        nested && 'py-2 pl-11',
        // The hover shade of the blue: on the tinted row the plain one falls below 4.5:1 in the dark theme.
        active ? 'bg-primary-soft text-primary-hover' : 'text-muted hover:bg-surface-2 hover:text-fg',
      )}
    >
      {nested ? null : <item.icon className="size-5 shrink-0" />}
      {item.label}
    </NavLink>
  );
}

function SidebarGroup({ item }: { item: NavGroupItem }) {
  const { pathname } = useLocation();
  const containsActive = item.children.some((child) => isActive(pathname, child));
  const [open, setOpen] = useState(true);
  const listId = useId();
  return (
    <li>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        className={clsx(
          rowClasses,
          containsActive ? 'text-fg' : 'text-muted hover:bg-surface-2 hover:text-fg',
        )}
      >
        <item.icon className="size-5 shrink-0" />
        <span>{item.label}</span>
        <Badge tone="pro">{item.badge}</Badge>
        <ChevronDownIcon className={clsx('ml-auto size-4 transition-transform', !open && '-rotate-90')} />
      </button>
      <ul id={listId} hidden={!open} className="mt-0.5 space-y-0.5">
        {item.children.map((child) => (
          <li key={child.to}>
            <SidebarLink item={child} nested />
          </li>
        ))}
      </ul>
    </li>
  );
}

/** docs/spec/01-core-screens.md Shell sidebar: the same content in the desktop column and the mobile drawer. */
export const SidebarNav = memo(function SidebarNav({
  onLogout,
  isAdmin = false,
}: {
  onLogout: () => void;
  isAdmin?: boolean;
}) {
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center border-b border-line px-5">
        <NavLink to="/dashboard" aria-label="GridBot dashboard" className="rounded-lg">
          <Logo />
        </NavLink>
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-3">
        <ul className="space-y-0.5">
          {sidebarItems(undefined, isAdmin).map((item) =>
            isGroup(item) ? (
              <SidebarGroup key={item.label} item={item} />
            ) : (
              <li key={item.to}>
                <SidebarLink item={item} />
              </li>
            ),
          )}
        </ul>
      </nav>
      <div className="border-t border-line p-3">
        <button
          type="button"
          onClick={onLogout}
          className={clsx(rowClasses, 'text-muted hover:bg-down/10 hover:text-down')}
        >
          <LogoutIcon className="size-5 shrink-0" />
          Logout
        </button>
      </div>
    </div>
  );
});

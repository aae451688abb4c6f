import { clsx } from 'clsx';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ChevronDownIcon, LogoutIcon } from '../../../components/ui/icons';
import { profileMenuItems } from './nav-items';

interface ProfileMenuProps {
  email: string;
  username: string;
  onLogout: () => void;
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
}

/** Menu button pattern: arrows move, Escape closes and returns focus, a click outside closes. */
export function ProfileMenu({ email, username, onLogout }: ProfileMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const initial = (username || email || '?').charAt(0).toUpperCase();

  useEffect(() => {
    if (!open) return;
    menuItems(menuRef.current)[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = menuItems(menuRef.current);
    const index = list.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: (index + 1) % list.length,
      ArrowUp: (index - 1 + list.length) % list.length,
      Home: 0,
      End: list.length - 1,
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    } else if (event.key in moves) {
      event.preventDefault();
      list[moves[event.key] ?? 0]?.focus();
    }
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  };

  const itemClasses =
    'flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-surface-2 focus:bg-surface-2';

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        // The visible username is part of the name (WCAG 2.5.3): a voice user can say what they see.
        aria-label={username ? `Account menu, ${username}` : 'Account menu'}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
        className="flex items-center gap-2 rounded-lg py-1 pr-1.5 pl-1 transition-colors hover:bg-surface-2"
      >
        {/* The initial is drawn by CSS, not text: the button's visible words stay the username alone, which its
            name contains (a name must include the visible label). */}
        <span
          aria-hidden="true"
          data-initial={initial}
          className="flex size-8 items-center justify-center rounded-full bg-primary-solid text-sm font-bold text-primary-fg before:content-[attr(data-initial)]"
        />
        <span className="hidden max-w-36 truncate text-sm font-semibold text-fg lg:block">{username}</span>
        <ChevronDownIcon className={clsx('size-4 text-muted transition-transform', open && 'rotate-180')} />
      </button>
      {open ? (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Account"
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-50 mt-2 w-64 origin-top-right rounded-xl border border-line bg-surface p-1.5 shadow-card"
        >
          <div className="mb-1 border-b border-line px-3 pt-2 pb-3">
            <p className="truncate text-sm font-semibold text-fg">{username}</p>
            <p className="truncate text-xs text-muted">{email}</p>
          </div>
          {profileMenuItems().map((item) => (
            <Link
              key={item.to}
              to={item.to}
              role="menuitem"
              tabIndex={-1}
              onClick={() => close(false)}
              className={clsx(itemClasses, 'text-fg')}
            >
              <item.icon className="size-4.5 text-muted" />
              {item.label}
            </Link>
          ))}
          <div className="my-1 border-t border-line" />
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              setOpen(false);
              onLogout();
            }}
            className={clsx(itemClasses, 'text-down')}
          >
            <LogoutIcon className="size-4.5" />
            Logout
          </button>
        </div>
      ) : null}
    </div>
  );
}

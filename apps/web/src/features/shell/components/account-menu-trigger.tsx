import { ChevronDownIcon } from '../../../components/ui/icons';

export interface ProfileMenuProps {
  email: string;
  username: string;
  onLogout: () => void;
}

/** The menu's trigger: a round initial and the username (from 1024 px), with a chevron. */
export function triggerParts({ email, username }: Pick<ProfileMenuProps, 'email' | 'username'>) {
  const initial = (username || email || '?').charAt(0).toUpperCase();
  return {
    // The visible username is part of the name (WCAG 2.5.3): a voice user can say what they see.
    label: username ? `Account menu, ${username}` : 'Account menu',
    className:
      'group flex items-center gap-2 rounded-lg py-1 pr-1.5 pl-1 transition-colors hover:bg-surface-2',
    children: (
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
    ),
  };
}

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { HelpIcon, MenuIcon, PlayIcon, WalletIcon } from '../../../components/ui/icons';
import { Logo } from '../../../components/ui/logo';
import { ProfileMenu } from './profile-menu';
import { ThemeToggle } from './theme-toggle';

interface AppHeaderProps {
  email: string;
  username: string;
  onLogout: () => void;
  onOpenNavigation: () => void;
  navigationOpen: boolean;
  extras?: ReactNode;
}

const iconLink =
  'flex h-9 items-center justify-center gap-2 rounded-lg px-1.5 text-muted sm:px-2 transition-colors hover:bg-surface-2 hover:text-fg';

export function AppHeader({
  email,
  username,
  onLogout,
  onOpenNavigation,
  navigationOpen,
  extras,
}: AppHeaderProps) {
  return (
    <header className="sticky top-9 z-20 flex h-16 items-center gap-2 border-b border-line bg-surface/85 px-3 backdrop-blur-md sm:px-6 lg:px-8">
      <button
        type="button"
        onClick={onOpenNavigation}
        aria-label="Open navigation"
        aria-expanded={navigationOpen}
        className="flex size-9 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg md:hidden"
      >
        <MenuIcon className="size-6" />
      </button>
      <Link to="/dashboard" aria-label="GridBot dashboard" className="rounded-lg md:hidden">
        <Logo />
      </Link>
      <div className="ml-auto flex items-center gap-1 sm:gap-1.5">
        <div className="mr-2 hidden sm:block">
          <Link to="/startbot" className={buttonClasses('primary', 'sm')}>
            <PlayIcon className="size-4" />
            Start BOT
          </Link>
        </div>
        <ThemeToggle />
        {extras}
        <Link to="/mywallet" aria-label="My Wallet" title="My Wallet" className={iconLink}>
          <WalletIcon className="size-5" />
          <span className="hidden text-sm font-semibold lg:inline">Wallet</span>
        </Link>
        <Link to="/help" aria-label="Help" title="Help and contact" className={iconLink}>
          <HelpIcon className="size-5" />
        </Link>
        <div className="ml-1 hidden h-6 w-px bg-line sm:block" />
        <ProfileMenu email={email} username={username} onLogout={onLogout} />
      </div>
    </header>
  );
}

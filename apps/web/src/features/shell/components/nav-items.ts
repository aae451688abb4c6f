import {
  CopyIcon,
  CrownIcon,
  CycleIcon,
  DashboardIcon,
  GiftIcon,
  HistoryIcon,
  type Icon,
  KeyIcon,
  LayersIcon,
  ListIcon,
  PlayIcon,
  ShieldIcon,
  SipIcon,
  WalletIcon,
  ZapIcon,
} from '../../../components/ui/icons';
import { env } from '../../../lib/env';

export interface NavLinkItem {
  label: string;
  to: string;
  icon: Icon;
  /** Other paths that belong to this entry (edit pages…), for the active highlight. */
  alsoActiveOn?: readonly string[];
}

export interface NavGroupItem {
  label: string;
  icon: Icon;
  badge: string;
  children: readonly NavLinkItem[];
}

export type NavItem = NavLinkItem | NavGroupItem;

export function isGroup(item: NavItem): item is NavGroupItem {
  return 'children' in item;
}

/** docs/spec/01-core-screens.md Shell sidebar, with the SIP entry point beside Start Cycle (Logout is added by the sidebar itself). */
export function sidebarItems(subscriptionEnabled = env.subscriptionEnabled, isAdmin = false): NavItem[] {
  const items: NavItem[] = [
    { label: 'Dashboard', to: '/dashboard', icon: DashboardIcon },
    {
      label: 'Multigrid',
      icon: ListIcon,
      badge: 'PRO',
      children: [
        { label: 'Create Strategy', to: '/botcreate', icon: ListIcon },
        {
          label: 'My Strategies',
          to: '/mystrategies',
          icon: ListIcon,
          alsoActiveOn: ['/editstrategy', '/scalpeditstrategy'],
        },
      ],
    },
    { label: 'Scalping', to: '/createscalpingstrategy', icon: ZapIcon },
    { label: 'Start BOT', to: '/startbot', icon: PlayIcon },
    // The exchanges' range grid (docs/trading-rules.md §2.6), beside the spec's bots.
    { label: 'Grid', to: '/grid', icon: LayersIcon, alsoActiveOn: ['/grid-bot'] },
    { label: 'Start Cycle', to: '/cycle', icon: CycleIcon },
    // docs/spec/01-core-screens.md §1: "start a cycle or a SIP (entry points)"; the SIP page is its title only.
    { label: 'Start SIP', to: '/sip', icon: SipIcon },
    { label: 'Copy BOTs', to: '/livebots', icon: CopyIcon },
  ];
  if (subscriptionEnabled) items.push({ label: 'Subscription', to: '/subscription', icon: CrownIcon });
  // Administration (beyond the spec): only the administrator sees it.
  if (isAdmin) items.push({ label: 'Admin', to: '/admin', icon: ShieldIcon });
  return items;
}

/** docs/spec/01-core-screens.md Shell profile menu (Logout is added by the menu itself). */
export function profileMenuItems(subscriptionEnabled = env.subscriptionEnabled): NavLinkItem[] {
  const items: NavLinkItem[] = [
    { label: 'My Wallet', to: '/mywallet', icon: WalletIcon },
    { label: 'API Setting', to: '/api-setting', icon: KeyIcon },
    { label: 'Security', to: '/security', icon: ShieldIcon },
    { label: 'My Strategies', to: '/mystrategies', icon: ListIcon },
  ];
  if (subscriptionEnabled) items.push({ label: 'My Referral', to: '/referral-program', icon: GiftIcon });
  items.push({ label: 'History', to: '/history', icon: HistoryIcon });
  return items;
}

/**
 * The app's icons, from lucide-react, under the names the screens use. Each is imported from its own module
 * (`lucide-react/icons/<name>`) so a route ships only the icons it draws. They are decorative (aria-hidden)
 * unless the caller gives them a label; callers size them with a `size-*` class.
 */
export type { LucideIcon as Icon } from 'lucide-react';
export { default as ArrowLeftIcon } from 'lucide-react/icons/arrow-left';
export { default as ArrowUpDownIcon } from 'lucide-react/icons/arrow-up-down';
export { default as BellIcon } from 'lucide-react/icons/bell';
export { default as SipIcon } from 'lucide-react/icons/calendar-sync';
export { default as GridIcon } from 'lucide-react/icons/chart-column';
export { default as ChevronDownIcon } from 'lucide-react/icons/chevron-down';
export { default as CheckCircleIcon } from 'lucide-react/icons/circle-check';
export { default as PlayIcon } from 'lucide-react/icons/circle-play';
export { default as HelpIcon } from 'lucide-react/icons/circle-question-mark';
export { default as ClockIcon } from 'lucide-react/icons/clock';
export { default as CopyIcon } from 'lucide-react/icons/copy';
export { default as CrownIcon } from 'lucide-react/icons/crown';
export { default as EyeIcon } from 'lucide-react/icons/eye';
export { default as EyeOffIcon } from 'lucide-react/icons/eye-off';
export { default as GiftIcon } from 'lucide-react/icons/gift';
export { default as HistoryIcon } from 'lucide-react/icons/history';
export { default as KeyIcon } from 'lucide-react/icons/key-round';
export { default as LayersIcon } from 'lucide-react/icons/layers';
export { default as DashboardIcon } from 'lucide-react/icons/layout-dashboard';
export { default as ListIcon } from 'lucide-react/icons/list';
export { default as LoaderIcon } from 'lucide-react/icons/loader-circle';
export { default as LogoutIcon } from 'lucide-react/icons/log-out';
export { default as MenuIcon } from 'lucide-react/icons/menu';
export { default as MoonIcon } from 'lucide-react/icons/moon';
export { default as EditIcon } from 'lucide-react/icons/pencil';
export { default as CycleIcon } from 'lucide-react/icons/refresh-cw';
export { default as ShieldIcon } from 'lucide-react/icons/shield-check';
export { default as SunIcon } from 'lucide-react/icons/sun';
export { default as AlertIcon } from 'lucide-react/icons/triangle-alert';
export { default as WalletIcon } from 'lucide-react/icons/wallet';
export { default as CloseIcon } from 'lucide-react/icons/x';
export { default as ZapIcon } from 'lucide-react/icons/zap';

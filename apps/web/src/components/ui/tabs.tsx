import * as RadixTabs from '@radix-ui/react-tabs';
import { clsx } from 'clsx';
import { type ReactNode, useId } from 'react';

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
}

interface TabsProps<T extends string> {
  /** Accessible name of the tab list. */
  label: string;
  items: readonly TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Content of the selected tab; without it the tabs are a filter over content shown elsewhere. */
  children?: ReactNode;
  className?: string;
}

/**
 * Tabs on Radix UI's Tabs (WAI-ARIA tabs pattern): one tab stop, arrows, Home and End move and select. Tabs
 * that do not fit wrap onto a second line rather than scroll out of sight (the six admin sections at 768 px).
 * The panel is our own element, not Radix's Content: Content mounts through Radix's Presence, which reads the
 * panel's computed animation on every mount and so forces a style recalculation of the page in the middle of
 * React's commit (tens of milliseconds on a phone, on the dashboard's first render); the selected tab names it.
 */
export function Tabs<T extends string>({ label, items, value, onChange, children, className }: TabsProps<T>) {
  const hasPanel = children !== undefined;
  const base = useId();
  const panelId = `${base}-panel`;
  const tabId = (tab: T) => `${base}-tab-${tab}`;
  return (
    <RadixTabs.Root
      value={value}
      onValueChange={(next) => onChange(next as T)}
      activationMode="automatic"
      className={className}
    >
      <RadixTabs.List
        aria-label={label}
        className="inline-flex max-w-full flex-wrap gap-1 rounded-lg border border-line bg-surface-2 p-1"
      >
        {items.map((item) => (
          <RadixTabs.Trigger
            key={item.value}
            value={item.value}
            id={tabId(item.value)}
            // A filter has no panel to point at.
            aria-controls={hasPanel ? panelId : undefined}
            className={clsx(
              'whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-semibold transition-colors duration-150',
              'text-muted hover:text-fg data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-sm',
            )}
          >
            {item.label}
          </RadixTabs.Trigger>
        ))}
      </RadixTabs.List>
      {hasPanel ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern puts a panel in the tab order (Tab from the tab list reaches its content)
        <div role="tabpanel" id={panelId} aria-labelledby={tabId(value)} tabIndex={0} className="mt-4">
          {children}
        </div>
      ) : null}
    </RadixTabs.Root>
  );
}

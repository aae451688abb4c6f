import { lazy, Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { Logo } from '../../components/ui/logo';

// The tape is decoration on the public pages: it loads after the form, which it must not hold up.
const TickerTape = lazy(() =>
  import('../../features/shell/components/ticker-tape').then((m) => ({ default: m.TickerTape })),
);

const highlights = [
  {
    title: 'Multigrid and Scalping',
    text: 'Design grid strategies with up to 50 levels and trailing take-profit.',
  },
  { title: 'Spot and USDT-M futures', text: 'Run bots on 22 major pairs with your own exchange account.' },
  {
    title: 'Risk rules on every bot',
    text: 'Pause, restart and stop-loss prices you can change while it runs.',
  },
];

/** Public pages: the ticker tape, a brand panel from 1024 px, and the page's card. */
export function AuthLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <Suspense fallback={<div className="h-9 border-b border-line bg-surface" />}>
        <TickerTape />
      </Suspense>
      <div className="grid flex-1 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <aside className="relative hidden overflow-hidden border-r border-line bg-surface lg:flex lg:flex-col lg:justify-between lg:p-12">
          <GridBackdrop />
          <Link to="/" className="relative w-fit rounded-lg" aria-label="GridBot home">
            <Logo />
          </Link>
          <div className="relative max-w-md">
            <h2 className="text-3xl font-bold leading-tight tracking-tight text-fg">
              Design grid strategies.
              <br />
              <span className="text-primary">Run them as bots.</span>
            </h2>
            <ul className="mt-8 space-y-5">
              {highlights.map((item) => (
                <li key={item.title} className="flex gap-3">
                  <span className="mt-1.5 size-2 shrink-0 rounded-full bg-up" />
                  <div>
                    <p className="font-semibold text-fg">{item.title}</p>
                    <p className="text-sm text-muted">{item.text}</p>
                  </div>
                </li>
              ))}
            </ul>
          </div>
          <p className="relative text-xs text-muted">
            Trading crypto assets is risky. Profits are not guaranteed.
          </p>
        </aside>
        <main className="flex items-start justify-center px-4 py-8 sm:items-center sm:px-6 sm:py-12">
          <div className="w-full max-w-md">
            <Outlet />
          </div>
        </main>
      </div>
    </div>
  );
}

const GRID_LEVELS = Array.from({ length: 11 }, (_, index) => 60 + index * 48);

/** Decorative grid levels behind the brand panel. */
function GridBackdrop() {
  return (
    <svg
      aria-hidden="true"
      className="pointer-events-none absolute inset-0 size-full text-primary opacity-[0.09]"
      preserveAspectRatio="none"
      viewBox="0 0 400 600"
    >
      {GRID_LEVELS.map((y) => (
        <line key={y} x1="0" x2="400" y1={y} y2={y} stroke="currentColor" strokeDasharray="4 6" />
      ))}
      <polyline
        points="0,430 40,400 80,450 120,360 160,390 200,300 240,340 280,250 320,280 360,190 400,220"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
      />
    </svg>
  );
}

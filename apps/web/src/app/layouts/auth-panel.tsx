import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/ui/logo';

interface AuthPanelProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** The card of a public page: logo on small screens, the page's h1, its prompt, then the form. */
export function AuthPanel({ title, description, children }: AuthPanelProps) {
  return (
    <div>
      <title>{`${title} · GridBot`}</title>
      <Link to="/" className="mb-8 inline-flex rounded-lg lg:hidden" aria-label="GridBot home">
        <Logo />
      </Link>
      <div className="rounded-2xl border border-line bg-surface p-6 shadow-card sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-fg">{title}</h1>
        {description ? <p className="mt-1.5 text-sm text-muted">{description}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

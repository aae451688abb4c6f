import type { FormEventHandler, ReactNode } from 'react';
import { Card, CardHeader } from './card';

interface SettingsFormCardProps {
  title: string;
  description: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Shown beside the form from xl up, under it on smaller screens. */
  chart?: ReactNode;
  children: ReactNode;
}

/** A start form (bot, cycle): its fields in a card, the chart of the chosen market next to it. */
export function SettingsFormCard({ title, description, onSubmit, chart, children }: SettingsFormCardProps) {
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,30rem)_minmax(0,1fr)]">
      <Card>
        <CardHeader title={title} description={description} />
        <form noValidate onSubmit={onSubmit} className="space-y-4 p-5">
          {children}
        </form>
      </Card>
      {chart === undefined ? null : <div className="min-w-0">{chart}</div>}
    </div>
  );
}

import { useState } from 'react';
import { Card } from '../../../components/ui/card';
import { PageHeader } from '../../../components/ui/page-header';
import { Tabs } from '../../../components/ui/tabs';
import { AdminLevels } from './admin-levels';
import { AdminActivity, AdminMessages, AdminUsers } from './admin-lists';
import { AdminPlans } from './admin-plans';
import { AdminSecurity } from './admin-security';
import { AdminWithdrawals } from './admin-withdrawals';

type Section = 'withdrawals' | 'plans' | 'levels' | 'users' | 'messages' | 'activity' | 'security';

const PLATFORM_SECTIONS = [
  { value: 'withdrawals', label: 'Withdrawals' },
  { value: 'plans', label: 'Plans' },
  { value: 'levels', label: 'Levels' },
] as const;
const GENERAL_SECTIONS = [
  { value: 'users', label: 'Users' },
  { value: 'messages', label: 'Messages' },
  { value: 'activity', label: 'Activity' },
  { value: 'security', label: 'Security' },
] as const;

/** Administration (beyond the spec). Withdrawals, plans and levels exist only with subscriptions on. */
export function AdminPage({ platformEnabled }: { platformEnabled: boolean }) {
  const sections = platformEnabled ? [...PLATFORM_SECTIONS, ...GENERAL_SECTIONS] : GENERAL_SECTIONS;
  const [section, setSection] = useState<Section>(sections[0].value);
  return (
    <>
      <PageHeader
        title="Administration"
        description="Every action here is logged with who did it and when."
      />
      <Card className="p-3 sm:p-5">
        <Tabs label="Administration" items={sections} value={section} onChange={setSection}>
          {section === 'withdrawals' ? <AdminWithdrawals /> : null}
          {section === 'plans' ? <AdminPlans /> : null}
          {section === 'levels' ? <AdminLevels /> : null}
          {section === 'users' ? <AdminUsers /> : null}
          {section === 'messages' ? <AdminMessages /> : null}
          {section === 'activity' ? <AdminActivity /> : null}
          {section === 'security' ? <AdminSecurity /> : null}
        </Tabs>
      </Card>
    </>
  );
}

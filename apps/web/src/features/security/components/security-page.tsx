import { ChangePasswordCard } from './change-password-card';
import { SecurityLogCard } from './security-log-card';
import { SessionsCard } from './sessions-card';
import { TwoFactorCard } from './two-factor-card';

/** The Security page: two-factor sign-in, password, sessions and the security log. */
export function SecurityPage() {
  return (
    <div className="space-y-6">
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <TwoFactorCard />
        <ChangePasswordCard />
      </div>
      <SessionsCard />
      <SecurityLogCard />
    </div>
  );
}

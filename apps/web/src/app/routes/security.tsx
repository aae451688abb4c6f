import { PageHeader } from '../../components/ui/page-header';
import { SecurityPage } from '../../features/security/components/security-page';

export default function SecurityRoute() {
  return (
    <>
      <PageHeader
        title="Security"
        description="Two-factor sign-in, your password, where you are signed in and what changed."
      />
      <SecurityPage />
    </>
  );
}

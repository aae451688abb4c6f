import { AdminPage } from '../../features/admin/components/admin-page';
import { env } from '../../lib/env';
import { usePlatformAccount } from '../platform-account';
import NotFoundRoute from './not-found';

/** Administration: only for the administrator; anyone else sees the not-found page, as the API answers 404. */
export default function AdminRoute() {
  const { account } = usePlatformAccount();
  if (!account) return null;
  return account.role === 'admin' ? (
    <AdminPage platformEnabled={env.subscriptionEnabled} />
  ) : (
    <NotFoundRoute />
  );
}

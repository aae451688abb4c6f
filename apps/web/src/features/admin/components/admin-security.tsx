import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useAdminSecurity, useSetAdminSecurity } from '../api/admin-queries';

/** The platform's security choices: two-factor sign-in required of administrators. */
export function AdminSecurity() {
  const settings = useAdminSecurity();
  const save = useSetAdminSecurity();
  const checked = settings.data?.requireAdminTwoFactor ?? false;
  return (
    <div className="space-y-2 p-1">
      <label className="flex items-start gap-3 text-sm text-fg">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-primary"
          checked={checked}
          disabled={settings.isPending || save.isPending}
          onChange={(event) =>
            save.mutateAsync(event.target.checked).then(
              (data) =>
                toast.success(
                  data.requireAdminTwoFactor
                    ? 'Administrators now need two-factor sign-in.'
                    : 'Two-factor sign-in is optional for administrators.',
                ),
              (error: unknown) => toast.error(errorMessage(error, 'Could not save the setting.')),
            )
          }
        />
        <span>
          <span className="font-semibold">Require two-factor sign-in for administrators</span>
          <span className="mt-0.5 block text-muted">
            An administrator without it is refused by every admin page until they turn it on (Security page).
          </span>
        </span>
      </label>
    </div>
  );
}

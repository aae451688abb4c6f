/**
 * The admin screens' paths, written once for the server's routes and the web's calls (docs/architecture.md §4).
 * Patterns with `:name` are filled in with `pathWith`; the admin security setting is in `securityApiPaths`.
 */
export const adminApiPaths = {
  withdrawals: '/api/admin/withdrawals',
  approveWithdrawal: '/api/admin/withdrawals/:id/approve',
  rejectWithdrawal: '/api/admin/withdrawals/:id/reject',
  /** GET lists, POST adds. */
  plans: '/api/admin/plans',
  /** PUT. */
  plan: '/api/admin/plans/:id',
  /** GET and PUT. */
  levels: '/api/admin/levels',
  users: '/api/admin/users',
  contactMessages: '/api/admin/contact-messages',
  actions: '/api/admin/actions',
} as const;

import { createBrowserRouter, RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { AppProvider } from './provider';
import { appRoutes } from './router';

const queryClient = createQueryClient();
const router = createBrowserRouter(appRoutes(queryClient));

// docs/spec/01-core-screens.md §4: a 401 ends the session. Navigate first, then drop the old session's cached data.
setUnauthorizedHandler((loginPath) => {
  void router.navigate(loginPath, { replace: true }).then(() => queryClient.clear());
});

export function App() {
  return (
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}

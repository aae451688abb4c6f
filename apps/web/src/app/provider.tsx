import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { useTheme } from '../lib/theme';
import { loadToaster, toasterWanted } from '../lib/toast';

const Toaster = lazy(() => loadToaster().then((sonner) => ({ default: sonner.Toaster })));

interface AppProviderProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function AppProvider({ queryClient, children }: AppProviderProps) {
  const theme = useTheme();
  // The toaster mounts once something asks for it (lib/toast), so the public screens open without it.
  const showToaster = useSyncExternalStore(toasterWanted.subscribe, toasterWanted.get, toasterWanted.get);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {showToaster ? (
        <Suspense fallback={null}>
          <Toaster theme={theme} position="bottom-right" richColors closeButton duration={5000} />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  );
}

import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { useTheme } from '../lib/theme';

interface AppProviderProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function AppProvider({ queryClient, children }: AppProviderProps) {
  const theme = useTheme();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster theme={theme} position="bottom-right" richColors closeButton duration={5000} />
    </QueryClientProvider>
  );
}

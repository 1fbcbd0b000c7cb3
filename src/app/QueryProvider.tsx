/**
 * The query cache (TanStack Query) around the pages that read server state through it: the
 * signed-in area and the shared link's page. Loaded with them, so that the sign-in page
 * loads without it.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../api/query';

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

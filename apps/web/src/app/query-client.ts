// Server state cache. Errors are already reported by the request layer, so nothing retries on its own; data
// is stale at once so that a remounted page (tab refresh) fetches again.
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 },
    mutations: { retry: false },
  },
});

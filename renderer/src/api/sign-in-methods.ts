import { QueryClient, useQuery } from '@tanstack/react-query';
import { useClient } from '../session/session-context';

/**
 * The server's own facts, the same signed in or out: kept apart from the app's QueryClient, which is cleared on
 * every sign-out (while the sign-in page, already shown, still reads them).
 */
const serverFacts = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: 1 } } });

/** Whether the server takes passwords, and its single sign-on provider: read once per page load. */
export function useSignInMethods() {
  const client = useClient();
  return useQuery({ queryKey: ['sign-in-methods'], queryFn: () => client.auth.methods() }, serverFacts);
}

/** Where a browser starts signing in with the provider, to come back to `redirect` (a dashboard path). */
export const singleSignOnStart = (startPath: string, redirect: string) =>
  `${startPath}?${new URLSearchParams({ redirect })}`;

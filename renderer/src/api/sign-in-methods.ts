import { useQuery } from '@tanstack/react-query';
import { useClient } from '../session/session-context';

/** Whether the server takes passwords, and its single sign-on provider: read once per page load, before sign-in. */
export function useSignInMethods() {
  const client = useClient();
  return useQuery({ queryKey: ['sign-in-methods'], queryFn: () => client.auth.methods(), staleTime: Infinity });
}

/** Where a browser starts signing in with the provider, to come back to `redirect` (a dashboard path). */
export const singleSignOnStart = (startPath: string, redirect: string) =>
  `${startPath}?${new URLSearchParams({ redirect })}`;

import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Environment } from '../sdk';
import { useClient } from '../session/session-context';
import { SHOWN_INLINE } from './query-client';

/** After a reset, every query about that project environment (keys `[domain, projectId, environment, …]`) reads again. */
export const refreshEnvironment = (queryClient: QueryClient, projectId: string, environment: Environment) =>
  queryClient.invalidateQueries({
    predicate: ({ queryKey }) => queryKey[1] === projectId && queryKey[2] === environment,
  });

/** Resets one environment of the project; what was on screen about it is read again. */
export function useResetEnvironment(projectId: string) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: (environment: Environment) => client.environments.reset(projectId, { environment }),
    onSuccess: (_reset, environment) => refreshEnvironment(queryClient, projectId, environment),
  });
}

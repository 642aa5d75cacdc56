import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Environment } from '../sdk';
import { useClient } from '../session/session-context';

/**
 * Resets one environment of the project. Afterwards every query about that project environment is read again (their
 * keys are `[domain, projectId, environment, …]`): what was on screen is gone.
 */
export function useResetEnvironment(projectId: string) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (environment: Environment) => client.environments.reset(projectId, { environment }),
    onSuccess: (_reset, environment) =>
      queryClient.invalidateQueries({
        predicate: ({ queryKey }) => queryKey[1] === projectId && queryKey[2] === environment,
      }),
  });
}

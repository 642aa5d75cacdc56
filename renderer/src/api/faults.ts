import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DropSocketsInput, Environment, FaultInput } from '../sdk';
import { useClient } from '../session/session-context';
import { useRefreshOn } from './live-events';
import { SHOWN_INLINE } from './query-client';

const faultsKey = (projectId: string, environment: Environment) => ['faults', projectId, environment] as const;

/**
 * The faults injected into an environment now. Read again when they change anywhere (another tab, the CLI, a test
 * suite) and when the first of them expires, so that a banner never says faults are on after they ended.
 */
export function useFaults(projectId: string, environment: Environment, enabled = true) {
  const client = useClient();
  useRefreshOn(['environment.faults_changed'], faultsKey(projectId, environment));
  return useQuery({
    queryKey: faultsKey(projectId, environment),
    queryFn: async () => (await client.faults.list(projectId, { environment })).data,
    enabled: enabled && environment !== 'production',
    refetchInterval: (query) => {
      const expiries = (query.state.data ?? []).map((fault) => Date.parse(fault.expiresAt) - Date.now());
      return expiries.length ? Math.max(1_000, Math.min(...expiries) + 250) : false;
    },
  });
}

export function useFaultChanges(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: faultsKey(projectId, environment) });
  return {
    add: useMutation({
      ...SHOWN_INLINE,
      mutationFn: (input: FaultInput) => client.faults.add(projectId, { ...input, environment }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (faultId: string) => client.faults.remove(projectId, faultId, { environment }),
      onSuccess: refresh,
    }),
    clear: useMutation({
      mutationFn: () => client.faults.clear(projectId, { environment }),
      onSuccess: refresh,
    }),
    dropSockets: useMutation({
      ...SHOWN_INLINE,
      mutationFn: (input: DropSocketsInput) => client.faults.dropSockets(projectId, { ...input, environment }),
    }),
  };
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Environment } from '../sdk';
import { useClient } from '../session/session-context';
import { refreshEnvironment } from './environments';
import { SHOWN_INLINE } from './query-client';

const snapshotsKey = (projectId: string, environment: Environment) => ['snapshots', projectId, environment] as const;

/** The environment's snapshots, by name (production has none, and is never asked). */
export function useSnapshots(projectId: string, environment: Environment) {
  const client = useClient();
  return useQuery({
    queryKey: snapshotsKey(projectId, environment),
    queryFn: async () => (await client.snapshots.list(projectId, { environment })).data,
    enabled: environment !== 'production',
  });
}

/** Save, restore and delete; a restore reads again everything shown of the environment, as a reset does. */
export function useSnapshotChanges(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: snapshotsKey(projectId, environment) });
  return {
    save: useMutation({
      ...SHOWN_INLINE,
      mutationFn: (input: { name: string; replace?: boolean }) =>
        client.snapshots.save(projectId, { ...input, environment }),
      onSuccess: refresh,
    }),
    restore: useMutation({
      ...SHOWN_INLINE,
      mutationFn: (name: string) => client.snapshots.restore(projectId, name, { environment }),
      onSuccess: () => refreshEnvironment(queryClient, projectId, environment),
    }),
    remove: useMutation({
      ...SHOWN_INLINE,
      mutationFn: (name: string) => client.snapshots.delete(projectId, name, { environment }),
      onSuccess: refresh,
    }),
  };
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Environment } from '../sdk';
import { useClient } from '../session/session-context';
import { SHOWN_INLINE } from './query-client';

const keysKey = (projectId: string, environment: Environment) => ['keys', projectId, environment] as const;

export function useKeys(projectId: string, environment: Environment, enabled = true) {
  const client = useClient();
  return useQuery({
    queryKey: keysKey(projectId, environment),
    queryFn: async () => (await client.keys.list(projectId, { environment })).data,
    enabled,
  });
}

export function useCreateKey(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: (name: string) => client.keys.create(projectId, { name, environment }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysKey(projectId, environment) }),
  });
}

export function useRevokeKey(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => client.keys.revoke(projectId, keyId, { environment }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysKey(projectId, environment) }),
  });
}

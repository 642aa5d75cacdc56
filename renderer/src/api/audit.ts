import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditQuery } from '../sdk';
import { useClient } from '../session/session-context';

export function useAuditPage(projectId: string, query: AuditQuery, enabled = true) {
  const client = useClient();
  return useQuery({
    queryKey: ['audit', projectId, query],
    queryFn: () => client.audit.list(projectId, query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

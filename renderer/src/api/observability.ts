import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ConnectionsQuery, Environment } from '../sdk';
import { useClient } from '../session/session-context';

/** Every query of one project environment's observability reads, so that a live event can refresh them by kind. */
export const observabilityKeys = {
  metrics: (projectId: string, environment: Environment) => ['observability', projectId, environment, 'metrics'],
  diagnostics: (projectId: string, environment: Environment) => [
    'observability',
    projectId,
    environment,
    'diagnostics',
  ],
  errors: (projectId: string, environment: Environment) => ['observability', projectId, environment, 'errors'],
  connections: (projectId: string, environment: Environment) => [
    'observability',
    projectId,
    environment,
    'connections',
  ],
  usage: (projectId: string, environment: Environment) => ['observability', projectId, environment, 'usage'],
};

/**
 * The window slides by a minute every minute and a 2xx read (which emits no live event) counts too: one fetch a
 * minute moves the charts' time axis on when nothing else happens. Everything else arrives through live events.
 */
const MINUTE_MS = 60_000;

export function useMetrics(projectId: string, environment: Environment, window: string) {
  const client = useClient();
  return useQuery({
    queryKey: [...observabilityKeys.metrics(projectId, environment), window],
    queryFn: () => client.observability.metrics(projectId, { environment, window }),
    placeholderData: keepPreviousData,
    refetchInterval: MINUTE_MS,
  });
}

export function useDiagnostics(projectId: string, environment: Environment) {
  const client = useClient();
  return useQuery({
    queryKey: observabilityKeys.diagnostics(projectId, environment),
    queryFn: () => client.observability.diagnostics(projectId, { environment }),
  });
}

export function useErrorsPage(projectId: string, environment: Environment, query: { limit: number; cursor?: string }) {
  const client = useClient();
  return useQuery({
    queryKey: [...observabilityKeys.errors(projectId, environment), 'page', query],
    queryFn: () => client.observability.errors(projectId, { environment, ...query }),
    placeholderData: keepPreviousData,
  });
}

export function useErrorRecord(projectId: string, environment: Environment, errorId: string) {
  const client = useClient();
  return useQuery({
    queryKey: [...observabilityKeys.errors(projectId, environment), 'one', errorId],
    queryFn: () => client.observability.error(projectId, errorId, { environment }),
  });
}

export function useConnectionsPage(
  projectId: string,
  environment: Environment,
  query: Omit<ConnectionsQuery, 'environment'>,
) {
  const client = useClient();
  return useQuery({
    queryKey: [...observabilityKeys.connections(projectId, environment), 'page', query],
    queryFn: () => client.observability.connections(projectId, { environment, ...query }),
    placeholderData: keepPreviousData,
  });
}

export function useConnection(projectId: string, environment: Environment, connectionId: string) {
  const client = useClient();
  return useQuery({
    queryKey: [...observabilityKeys.connections(projectId, environment), 'one', connectionId],
    queryFn: () => client.observability.connection(projectId, connectionId, { environment }),
  });
}

export function useUsage(projectId: string, environment: Environment, month: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: [...observabilityKeys.usage(projectId, environment), month ?? 'current'],
    queryFn: () => client.observability.usage(projectId, { environment, month }),
    placeholderData: keepPreviousData,
  });
}

/** The catalogue's event types (public, the same for every project): the live tail's type filter offers them. */
export function useEventTypes() {
  const client = useClient();
  return useQuery({
    queryKey: ['webhook-event-types'],
    queryFn: async () => (await client.webhooks.eventTypes()).data.map((entry) => entry.type),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

import { SimpleGrid } from '@mantine/core';
import { useRefreshOn } from '../../api/live-events';
import { observabilityKeys, useDiagnostics } from '../../api/observability';
import { Figure } from '../../components/figure';
import type { Environment } from '../../sdk';

const QUEUE_EVENTS = ['delivery.attempted'] as const;

/**
 * The endpoint's queue (its deliveries waiting to go out) and its delivery rate (succeeded over the last minute),
 * from the environment's diagnostics: an endpoint falling behind shows as a queue that grows. Nothing is shown when
 * the diagnostics cannot be read.
 */
export function EndpointQueue({
  projectId,
  environment,
  webhookId,
}: {
  projectId: string;
  environment: Environment;
  webhookId: string;
}) {
  const diagnostics = useDiagnostics(projectId, environment);
  useRefreshOn(QUEUE_EVENTS, observabilityKeys.diagnostics(projectId, environment));
  if (!diagnostics.data) return null;
  const figures = diagnostics.data.webhookQueue.endpoints.find((endpoint) => endpoint.webhookId === webhookId);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} aria-label="Delivery queue">
      <Figure label="Queue">{figures?.pending ?? 0} pending</Figure>
      <Figure label="Delivered (last minute)">{figures?.deliveredLastMinute ?? 0}</Figure>
    </SimpleGrid>
  );
}

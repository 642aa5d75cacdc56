import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useRefreshOn } from '../../api/live-events';
import { observabilityKeys, useDiagnostics } from '../../api/observability';
import { QueryStatus } from '../../components/error-alert';
import { bytes, duration, Figure } from '../../components/figure';
import { Time } from '../../components/time';
import type { Environment } from '../../sdk';

const DIAGNOSTICS_EVENTS = ['connection.opened', 'connection.closed', 'request.failed', 'delivery.attempted'] as const;

/** The server and this environment at a glance: version, uptime, database, webhook queue, open connections. */
export function DiagnosticsPanel({ projectId, environment }: { projectId: string; environment: Environment }) {
  const diagnostics = useDiagnostics(projectId, environment);
  useRefreshOn(DIAGNOSTICS_EVENTS, observabilityKeys.diagnostics(projectId, environment));
  const d = diagnostics.data;
  return (
    <section aria-labelledby="diagnostics-heading">
      <Stack gap="xs">
        <Title order={2} size="h4" id="diagnostics-heading">
          Diagnostics
        </Title>
        <QueryStatus query={diagnostics} loading="Loading diagnostics" failed="Diagnostics could not be loaded" />
        {d ? (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 7 }}>
            <Figure label="Server">
              {d.version} · {d.mode}
            </Figure>
            <Figure label="Up for">{duration(d.uptimeSeconds)}</Figure>
            <Figure label="Database">{bytes(d.database.bytes)}</Figure>
            <Figure label="Open connections">
              {d.connections.realtime} realtime · {d.connections.signaling} signaling
            </Figure>
            <Figure label="Errors (last 5 min)">{percent(d.recentErrorRate)} of requests</Figure>
            <Figure label="Media (last hour)">
              {bytes(d.media.bytesIn)} in · {bytes(d.media.bytesOut)} out
              <Text span size="xs" c="dimmed" display="block">
                {d.media.packetsLostIn + d.media.packetsLostOut} packets lost · {d.media.connections} connections
              </Text>
            </Figure>
            <Figure label="Webhook queue">
              {d.webhookQueue.pending} pending
              {d.webhookQueue.oldestPendingAt ? (
                <Text span size="xs" c="dimmed" display="block">
                  oldest <Time value={d.webhookQueue.oldestPendingAt} />
                </Text>
              ) : null}
            </Figure>
          </SimpleGrid>
        ) : null}
      </Stack>
    </section>
  );
}

const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.01 ? 2 : 0)}%`;

import { Code, Group, Stack, Title } from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { useRefreshOn } from '../../api/live-events';
import { observabilityKeys, useConnection } from '../../api/observability';
import { QueryStatus } from '../../components/error-alert';
import { Facts } from '../../components/facts';
import { bytes, duration } from '../../components/figure';
import { AnchorLink } from '../../components/links';
import { Time } from '../../components/time';
import type { LiveEvent } from '../../sdk';
import { useProjectRoute } from '../../shell/project-page';
import { ConnectionState } from './connections';

const KINDS = { realtime: 'Realtime (chat)', signaling: 'Signaling (room)' } as const;

/** One connection: who, where, how long, and how it ended; an open one turns closed as it closes. */
export function ConnectionDetailPage() {
  const { projectId, environment } = useProjectRoute();
  const { connectionId } = useParams({
    from: '/signed-in/projects/$projectId/observability/connections/$connectionId',
  });
  const query = useConnection(projectId, environment, connectionId);
  const closedHere = (event: LiveEvent) =>
    event.type === 'connection.closed' && event.data.connection.id === connectionId;
  useRefreshOn(closedHere, observabilityKeys.connections(projectId, environment));
  const connection = query.data;
  const ended = connection?.disconnectedAt ? Date.parse(connection.disconnectedAt) : null;
  return (
    <Stack gap="md">
      <AnchorLink
        to="/projects/$projectId/observability/connections"
        params={{ projectId }}
        search={{ env: environment }}
      >
        ← All connections
      </AnchorLink>
      <QueryStatus query={query} loading="Loading the connection" failed="This connection could not be loaded" />
      {connection ? (
        <>
          <Group gap="sm">
            <Title order={2} size="h4">
              {KINDS[connection.kind]} connection of {connection.identity}
            </Title>
            <ConnectionState connection={connection} />
          </Group>
          <Facts
            label="Connection details"
            rows={[
              ['Connection', <Code key="id">{connection.id}</Code>],
              ['Kind', KINDS[connection.kind]],
              ['Identity', connection.identity],
              [
                'Room',
                connection.roomId ? (
                  <AnchorLink
                    key="room"
                    to="/projects/$projectId/rooms/$roomId"
                    params={{ projectId, roomId: connection.roomId }}
                    search={{ env: environment }}
                    ff="monospace"
                  >
                    {connection.roomId}
                  </AnchorLink>
                ) : (
                  '—'
                ),
              ],
              [
                'Conversation',
                connection.conversationId ?? (connection.kind === 'realtime' ? 'Every conversation of the user' : '—'),
              ],
              ['Connected', <Time key="c" value={connection.connectedAt} />],
              ['Disconnected', <Time key="d" value={connection.disconnectedAt} empty="Still open" />],
              [
                'Duration',
                ended === null ? 'Open' : duration(Math.round((ended - Date.parse(connection.connectedAt)) / 1000)),
              ],
              ['Close code', connection.closeCode ?? '—'],
              ['Close reason', connection.closeReason || '—'],
              ['Environment', connection.environment],
              ['Server node', connection.nodeId ?? '—'],
              [
                'Media through the server',
                connection.media
                  ? `${bytes(connection.media.bytesIn)} in (${connection.media.packetsLostIn} packets lost) · ` +
                    `${bytes(connection.media.bytesOut)} out (${connection.media.packetsLostOut} lost)`
                  : '—',
              ],
            ]}
          />
        </>
      ) : null}
    </Stack>
  );
}

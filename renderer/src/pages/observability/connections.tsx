import { Badge, Group, SegmentedControl, Table, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useRefreshOn } from '../../api/live-events';
import { observabilityKeys, useConnectionsPage } from '../../api/observability';
import { AnchorLink } from '../../components/links';
import { PagedTable } from '../../components/paged-table';
import { Time } from '../../components/time';
import type { Connection } from '../../sdk';
import { useProjectRoute } from '../../shell/project-page';

const PAGE_SIZE = 25;
const CONNECTION_EVENTS = ['connection.opened', 'connection.closed'] as const;
const KINDS = [
  { value: 'all', label: 'All' },
  { value: 'realtime', label: 'Realtime (chat)' },
  { value: 'signaling', label: 'Signaling (rooms)' },
];

/** Realtime and signaling sockets, newest first, paged with cursors in the address; they open and close live. */
export function ConnectionsPage() {
  const { projectId, environment } = useProjectRoute();
  const search = useSearch({ from: '/signed-in/projects/$projectId/observability/connections' });
  const navigate = useNavigate({ from: '/projects/$projectId/observability/connections' });
  const cursors = search.cursors ?? [];
  const page = useConnectionsPage(projectId, environment, {
    limit: PAGE_SIZE,
    kind: search.kind,
    cursor: cursors.at(-1),
  });
  useRefreshOn(CONNECTION_EVENTS, observabilityKeys.connections(projectId, environment));
  return (
    <>
      <SegmentedControl
        aria-label="Kind of connection"
        w="fit-content"
        data={KINDS}
        value={search.kind ?? 'all'}
        onChange={(value) =>
          void navigate({
            search: (prev) => ({
              ...prev,
              kind: value === 'realtime' || value === 'signaling' ? value : undefined,
              cursors: undefined,
            }),
          })
        }
      />
      <PagedTable
        label="Connections"
        query={page}
        columns={['Connected', 'Kind', 'Identity', 'Room or conversation', 'State', 'Connection']}
        row={(connection) => <ConnectionRow key={connection.id} projectId={projectId} connection={connection} />}
        empty={
          <Text c="dimmed">
            No connections{search.kind ? ' of this kind' : ''} yet. A chat client on <code>/v1/realtime</code> (with a
            chat token) or a participant joining a room on <code>/v1/rtc</code> (with an RTC token) appears here; see{' '}
            <AnchorLink to="/projects/$projectId/connect" params={{ projectId }} search={{ env: environment }}>
              Connect
            </AnchorLink>{' '}
            for a key and code.
          </Text>
        }
      />
    </>
  );
}

function ConnectionRow({ projectId, connection }: { projectId: string; connection: Connection }) {
  const { environment } = useProjectRoute();
  return (
    <Table.Tr>
      <Table.Td>
        <Time value={connection.connectedAt} />
      </Table.Td>
      <Table.Td>{connection.kind}</Table.Td>
      <Table.Td>{connection.identity}</Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {connection.roomId ??
            connection.conversationId ??
            (connection.kind === 'realtime' ? 'all their conversations' : '—')}
        </Text>
      </Table.Td>
      <Table.Td>
        <ConnectionState connection={connection} />
      </Table.Td>
      <Table.Td>
        <AnchorLink
          to="/projects/$projectId/observability/connections/$connectionId"
          params={{ projectId, connectionId: connection.id }}
          search={{ env: environment }}
          ff="monospace"
          size="sm"
        >
          {connection.id}
        </AnchorLink>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * A badge's label may shrink to nothing in a crowded table (Mantine lets it overflow hidden, which lets the column
 * squeeze it to "CLO…"): the state is the point of the column, so it is always read whole.
 */
const WHOLE_LABEL = { root: { flexShrink: 0 }, label: { overflow: 'visible' } } as const;

export function ConnectionState({ connection }: { connection: Connection }) {
  if (!connection.disconnectedAt)
    return (
      <Badge color="green" variant="dot" styles={WHOLE_LABEL}>
        Open
      </Badge>
    );
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color="gray" variant="dot" styles={WHOLE_LABEL}>
        Closed
      </Badge>
      {connection.closeCode !== null ? (
        <Text size="xs" c="dimmed">
          {connection.closeCode}
        </Text>
      ) : null}
    </Group>
  );
}

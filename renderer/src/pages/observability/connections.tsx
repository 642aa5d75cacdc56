import { Badge, Group, SegmentedControl, Table, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useRefreshOn } from '../../api/live-events';
import { observabilityKeys, useConnectionsPage } from '../../api/observability';
import { CursorPager } from '../../components/cursor-pager';
import { QueryStatus } from '../../components/error-alert';
import { AnchorLink } from '../../components/links';
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
      <QueryStatus query={page} loading="Loading connections" failed="The connections could not be loaded" />
      {page.data?.data.length === 0 ? (
        <Text c="dimmed">
          No connections{search.kind ? ` of this kind` : ''} yet. A chat client on <code>/v1/realtime</code> (with a
          chat token) or a participant joining a room on <code>/v1/rtc</code> (with an RTC token) appears here; see{' '}
          <AnchorLink to="/projects/$projectId/connect" params={{ projectId }} search={{ env: environment }}>
            Connect
          </AnchorLink>{' '}
          for a key and code.
        </Text>
      ) : null}
      {page.data?.data.length ? (
        <Table.ScrollContainer minWidth={820}>
          <Table aria-label="Connections" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Connected</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Identity</Table.Th>
                <Table.Th>Room or conversation</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Connection</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.data.data.map((connection) => (
                <ConnectionRow key={connection.id} projectId={projectId} connection={connection} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CursorPager
        cursors={cursors}
        nextCursor={page.data?.nextCursor}
        onChange={(next) => void navigate({ search: (prev) => ({ ...prev, cursors: next }) })}
        newer="Newer connections"
        older="Older connections"
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
          {connection.roomId ?? connection.conversationId ?? '—'}
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

export function ConnectionState({ connection }: { connection: Connection }) {
  if (!connection.disconnectedAt)
    return (
      <Badge color="green" variant="dot">
        Open
      </Badge>
    );
  return (
    <Group gap={6} wrap="nowrap">
      <Badge color="gray" variant="dot">
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

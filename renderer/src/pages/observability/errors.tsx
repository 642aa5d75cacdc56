import { Badge, Code, Table, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useRefreshOn } from '../../api/live-events';
import { observabilityKeys, useErrorsPage } from '../../api/observability';
import { CursorPager } from '../../components/cursor-pager';
import { QueryStatus } from '../../components/error-alert';
import { AnchorLink } from '../../components/links';
import { Time } from '../../components/time';
import type { ErrorRecord } from '../../sdk';
import { useProjectRoute } from '../../shell/project-page';

const PAGE_SIZE = 25;
const ERROR_EVENTS = ['request.failed'] as const;

/** Failed runtime requests, newest first, paged with cursors in the address; a new failure appears as it happens. */
export function ErrorsPage() {
  const { projectId, environment } = useProjectRoute();
  const search = useSearch({ from: '/signed-in/projects/$projectId/observability/errors' });
  const navigate = useNavigate({ from: '/projects/$projectId/observability/errors' });
  const cursors = search.cursors ?? [];
  const page = useErrorsPage(projectId, environment, { limit: PAGE_SIZE, cursor: cursors.at(-1) });
  useRefreshOn(ERROR_EVENTS, observabilityKeys.errors(projectId, environment));
  return (
    <>
      <QueryStatus query={page} loading="Loading errors" failed="The errors could not be loaded" />
      {page.data?.data.length === 0 ? (
        <Text c="dimmed">
          No failed requests in this environment. When a request made with an API key, chat token or RTC token is
          answered 4xx or 5xx, it appears here with its request id (the <Code>X-Request-Id</Code> of the answer).
        </Text>
      ) : null}
      {page.data?.data.length ? (
        <Table.ScrollContainer minWidth={820}>
          <Table aria-label="Errors" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Code</Table.Th>
                <Table.Th>Request</Table.Th>
                <Table.Th>Request id</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.data.data.map((error) => (
                <ErrorRow key={error.id} projectId={projectId} error={error} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CursorPager
        cursors={cursors}
        nextCursor={page.data?.nextCursor}
        onChange={(next) => void navigate({ search: (prev) => ({ ...prev, cursors: next }) })}
        newer="Newer errors"
        older="Older errors"
      />
    </>
  );
}

function ErrorRow({ projectId, error }: { projectId: string; error: ErrorRecord }) {
  const { environment } = useProjectRoute();
  return (
    <Table.Tr>
      <Table.Td>
        <Time value={error.occurredAt} />
      </Table.Td>
      <Table.Td>
        <StatusBadge status={error.status} />
      </Table.Td>
      <Table.Td>
        <Code>{error.code}</Code>
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {error.method} {error.route}
        </Text>
      </Table.Td>
      <Table.Td>
        <AnchorLink
          to="/projects/$projectId/observability/errors/$errorId"
          params={{ projectId, errorId: error.id }}
          search={{ env: environment }}
          ff="monospace"
          size="sm"
          aria-label={`Error ${error.requestId}: details`}
        >
          {error.requestId}
        </AnchorLink>
      </Table.Td>
    </Table.Tr>
  );
}

export function StatusBadge({ status }: { status: number }) {
  return (
    <Badge color={status >= 500 ? 'red' : 'orange'} variant="dot">
      {status}
    </Badge>
  );
}

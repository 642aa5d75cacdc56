import { Badge, Code, Table, Text } from '@mantine/core';
import { useSearch } from '@tanstack/react-router';
import { useRefreshOn } from '../../api/live-events';
import { observabilityKeys, useErrorsPage } from '../../api/observability';
import { AnchorLink } from '../../components/links';
import { PagedTable } from '../../components/paged-table';
import { Time } from '../../components/time';
import type { ErrorRecord } from '../../sdk';
import { useProjectRoute } from '../../shell/project-page';

const PAGE_SIZE = 25;
const ERROR_EVENTS = ['request.failed'] as const;

/** Failed runtime requests, newest first, paged with cursors in the address; a new failure appears as it happens. */
export function ErrorsPage() {
  const { projectId, environment } = useProjectRoute();
  const search = useSearch({ from: '/signed-in/projects/$projectId/observability/errors' });
  const cursors = search.cursors ?? [];
  const page = useErrorsPage(projectId, environment, { limit: PAGE_SIZE, cursor: cursors.at(-1) });
  useRefreshOn(ERROR_EVENTS, observabilityKeys.errors(projectId, environment));
  return (
    <PagedTable
      label="Errors"
      query={page}
      columns={['When', 'Status', 'Code', 'Request', 'Request id']}
      row={(error) => <ErrorRow key={error.id} projectId={projectId} error={error} />}
      empty={
        <Text c="dimmed">
          No failed requests in this environment. When a request made with an API key, chat token or RTC token is
          answered 4xx or 5xx, it appears here with its request id (the <Code>X-Request-Id</Code> of the answer).
        </Text>
      }
    />
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

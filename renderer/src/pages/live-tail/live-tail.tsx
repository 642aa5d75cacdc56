import { Badge, Button, Code, Group, MultiSelect, Table, Text, TextInput } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, memo, useEffect, useMemo, useState } from 'react';
import { useEventTypes } from '../../api/observability';
import { can } from '../../api/projects';
import { useWebhooks } from '../../api/webhooks';
import { AnchorLink, PathLink } from '../../components/links';
import { LiveBadge } from '../../components/live-badge';
import type { Environment, Project } from '../../sdk';
import { MissingCapability, ProjectPage } from '../../shell/project-page';
import { colorOf, linksOf, STREAM_ONLY_TYPES, summaryOf } from './describe';
import { TAIL_SIZE, type TailEntry, useTail } from './tail-state';

export function LiveTailPage() {
  return (
    <ProjectPage
      title="Live tail"
      environmentScoped
      description="Everything that happens in this environment, as it happens: messages (as metadata, never their text), connections, failed requests, webhook deliveries."
    >
      {(project, environment) =>
        can(project, 'project:read') ? (
          <LiveTail key={environment} project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="watch the live event stream" capability="project:read" />
        )
      }
    </ProjectPage>
  );
}

function LiveTail({ project, environment }: { project: Project; environment: Environment }) {
  const tail = useTail();
  const search = useSearch({ from: '/signed-in/projects/$projectId/live' });
  const navigate = useNavigate({ from: '/projects/$projectId/live' });
  const [text, setText] = useState(search.q ?? '');
  const types = search.types ?? [];
  const catalogue = useEventTypes();
  const typeOptions = useMemo(
    () => [...new Set([...STREAM_ONLY_TYPES, ...(catalogue.data ?? []), ...types])],
    [catalogue.data, types],
  );
  const needle = (search.q ?? '').toLowerCase();
  const visible = tail.shown.filter(
    ({ event }) =>
      (types.length === 0 || types.includes(event.type)) &&
      (needle === '' || JSON.stringify(event.data).toLowerCase().includes(needle)),
  );
  const filtered = types.length > 0 || needle !== '';
  const endpointUrls = useEndpointUrls(project, environment, visible);
  return (
    <>
      <Group align="flex-end" justify="space-between">
        <Group align="flex-end">
          <MultiSelect
            label="Event types"
            placeholder={types.length ? undefined : 'All types'}
            data={typeOptions}
            value={types}
            searchable
            clearable
            w={320}
            onChange={(value) =>
              void navigate({ search: (prev) => ({ ...prev, types: value.length ? value : undefined }), replace: true })
            }
          />
          <TextInput
            label="Filter by id or name"
            placeholder="e.g. conv_…, alice, req_…"
            value={text}
            w={240}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setText(value);
              void navigate({ search: (prev) => ({ ...prev, q: value || undefined }), replace: true });
            }}
          />
        </Group>
        <Group>
          <LiveBadge />
          {tail.paused ? (
            <Button onClick={tail.resume}>Resume{tail.held.length ? ` (${tail.held.length} new)` : ''}</Button>
          ) : (
            <Button variant="default" onClick={tail.pause}>
              Pause
            </Button>
          )}
          <Button variant="default" onClick={tail.clear} disabled={tail.shown.length + tail.held.length === 0}>
            Clear
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" role="status" aria-live="off">
        {tail.received} {tail.received === 1 ? 'event' : 'events'} received · {visible.length} shown
        {filtered ? ' (filtered)' : ''}
        {tail.paused ? ` · paused, ${tail.held.length} new held back` : ''} · the newest {TAIL_SIZE} are kept
      </Text>
      {visible.length === 0 ? (
        <EmptyTail projectId={project.id} environment={environment} tail={tail} filtered={filtered} />
      ) : (
        <Table.ScrollContainer minWidth={860}>
          <Table aria-label="Live events" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={110}>Time</Table.Th>
                <Table.Th w={190}>Type</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th w={190}>Open</Table.Th>
                <Table.Th w={90}>Metadata</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {visible.map((entry) => (
                <TailRow
                  key={entry.seq}
                  entry={entry}
                  projectId={project.id}
                  environment={environment}
                  endpointUrl={
                    entry.event.type === 'delivery.attempted'
                      ? endpointUrls.get(entry.event.data.delivery.webhookId)
                      : undefined
                  }
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}

function EmptyTail({
  projectId,
  environment,
  tail,
  filtered,
}: {
  projectId: string;
  environment: Environment;
  tail: { received: number; paused: boolean };
  filtered: boolean;
}) {
  if (tail.paused) return <Text c="dimmed">Paused. New events are held back until you resume.</Text>;
  if (filtered && tail.received > 0) return <Text c="dimmed">No event received so far matches the filter.</Text>;
  if (tail.received > 0) return <Text c="dimmed">Cleared. New events appear here as they happen.</Text>;
  return (
    <Text c="dimmed">
      Waiting for events — send a message or connect a client with this environment’s credentials; see{' '}
      <AnchorLink to="/projects/$projectId/connect" params={{ projectId }} search={{ env: environment }}>
        Connect
      </AnchorLink>{' '}
      for keys and code.
    </Text>
  );
}

/**
 * The URLs of the environment's webhook endpoints by id, to name the endpoint of each delivery on screen (the event
 * carries only its id). Read again when a delivery names one not known yet (added since); a role without
 * `webhooks:read` sees the ids.
 */
function useEndpointUrls(project: Project, environment: Environment, entries: TailEntry[]): Map<string, string> {
  const endpoints = useWebhooks(project.id, environment, can(project, 'webhooks:read'));
  const urls = useMemo(
    () => new Map((endpoints.data ?? []).map((endpoint) => [endpoint.id, endpoint.url])),
    [endpoints.data],
  );
  const [asked, setAsked] = useState(new Set<string>());
  let missing: string | null = null;
  for (const { event } of entries) {
    if (event.type !== 'delivery.attempted') continue;
    const id = event.data.delivery.webhookId;
    if (!urls.has(id) && !asked.has(id)) missing = id;
  }
  const { refetch, isFetching, isSuccess } = endpoints;
  useEffect(() => {
    // Once per id: an endpoint deleted since stays unknown, and is shown by its id.
    if (!missing || !isSuccess || isFetching) return;
    setAsked((before) => new Set(before).add(missing));
    void refetch();
  }, [missing, isSuccess, isFetching, refetch]);
  return urls;
}

const timeOf = (ms: number) =>
  new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** One event: its time, type, ids, links to what it names, and its metadata on demand. Rows never change. */
const TailRow = memo(function TailRow({
  entry,
  projectId,
  environment,
  endpointUrl,
}: {
  entry: TailEntry;
  projectId: string;
  environment: Environment;
  endpointUrl: string | undefined;
}) {
  const [open, setOpen] = useState(false);
  const { event } = entry;
  const detailsId = `event-${entry.seq}`;
  return (
    <Fragment>
      <Table.Tr>
        <Table.Td>
          <time dateTime={event.at} title={event.at}>
            {timeOf(Date.parse(event.at))}
          </time>
        </Table.Td>
        <Table.Td>
          <Badge variant="dot" color={colorOf(event.type)} tt="none">
            {event.type}
          </Badge>
        </Table.Td>
        <Table.Td>
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-word' }}>
            {summaryOf(event, endpointUrl)}
          </Text>
        </Table.Td>
        <Table.Td>
          <Group gap="xs">
            {linksOf(event, projectId, environment).map((link) => (
              <PathLink key={link.label} href={link.href} size="sm">
                {link.label}
              </PathLink>
            ))}
          </Group>
        </Table.Td>
        <Table.Td>
          <Button
            size="compact-xs"
            variant="subtle"
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={`${open ? 'Hide' : 'Show'} metadata of ${event.type} at ${event.at}`}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : 'Show'}
          </Button>
        </Table.Td>
      </Table.Tr>
      {open ? (
        <Table.Tr id={detailsId}>
          <Table.Td colSpan={5}>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {JSON.stringify(event, null, 2)}
            </Code>
          </Table.Td>
        </Table.Tr>
      ) : null}
    </Fragment>
  );
});

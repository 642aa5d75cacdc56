import { Button, Code, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate } from '@tanstack/react-router';
import { useRefreshOn } from '../api/live-events';
import { liveStreamKeys, useCreateLiveStream, useLiveStreamsPage } from '../api/live-streams';
import { can } from '../api/projects';
import { CursorPager, useCursors } from '../components/cursor-pager';
import { ErrorAlert, QueryStatus } from '../components/error-alert';
import { AnchorLink } from '../components/links';
import { LiveBadge } from '../components/live-badge';
import { StreamStatus } from '../components/stream-status';
import { Time } from '../components/time';
import type { Environment, LiveStream, Project } from '../sdk';
import { envSearch } from '../search';
import { environmentLabel, MissingCapability, ProjectPage } from '../shell/project-page';

export function LiveStreamsPage() {
  return (
    <ProjectPage
      title="Live streams"
      environmentScoped
      description="Each stream wraps a room (media) and a conversation (its chat). Create one, give hosts and viewers their credentials, and watch it go live."
    >
      {(project, environment) => <LiveStreams key={environment} project={project} environment={environment} />}
    </ProjectPage>
  );
}

function LiveStreams({ project, environment }: { project: Project; environment: Environment }) {
  const cursors = useCursors();
  const page = useLiveStreamsPage(project.id, environment, cursors.at(-1));
  // Starting and ending announce themselves; a stream made elsewhere announces its room (the catalogue has no
  // event of its own for a new stream), so both refresh the list.
  useRefreshOn(
    (event) => event.type.startsWith('live_stream.') || event.type === 'room.created',
    liveStreamKeys.all(project.id, environment),
  );
  const write = can(project, 'live-streams:write');
  const streams = page.data?.data;
  return (
    <>
      {write ? (
        <CreateStreamForm project={project} environment={environment} />
      ) : (
        <MissingCapability project={project} what="create or end live streams" capability="live-streams:write" />
      )}
      <Group justify="space-between">
        <Title order={2} size="h4">
          {environmentLabel(environment)} streams
        </Title>
        <LiveBadge />
      </Group>
      <QueryStatus query={page} loading="Loading live streams" failed="The live streams could not be loaded" />
      {streams?.length === 0 && cursors.length === 0 ? <NoStreams write={write} /> : null}
      {streams?.length ? (
        <Table.ScrollContainer minWidth={700}>
          <Table highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Title</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Started</Table.Th>
                <Table.Th>Ended</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {streams.map((stream) => (
                <StreamRow key={stream.id} project={project} environment={environment} stream={stream} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CursorPager nextCursor={page.data?.nextCursor} newer="Newer streams" older="Older streams" />
    </>
  );
}

function NoStreams({ write }: { write: boolean }) {
  return (
    <Paper withBorder p="md">
      <Text fw={500}>No live streams yet</Text>
      <Text size="sm" c="dimmed">
        {write ? 'Create one above, or ' : 'Your server creates them '}
        with <Code>POST /v1/live-streams</Code> and an API key of this environment. Hosts and viewers then get their
        credentials on the stream’s page or from <Code>POST /v1/live-streams/{'{id}'}/hosts</Code> and{' '}
        <Code>/viewer-tokens</Code>.
      </Text>
    </Paper>
  );
}

function StreamRow({
  project,
  environment,
  stream,
}: {
  project: Project;
  environment: Environment;
  stream: LiveStream;
}) {
  return (
    <Table.Tr>
      <Table.Td>
        <AnchorLink
          to="/projects/$projectId/live-streams/$streamId"
          params={{ projectId: project.id, streamId: stream.id }}
          search={envSearch(environment)}
        >
          {stream.title}
        </AnchorLink>
        <Text size="xs" c="dimmed" ff="monospace">
          {stream.id}
        </Text>
      </Table.Td>
      <Table.Td>
        <StreamStatus status={stream.status} />
      </Table.Td>
      <Table.Td>
        <Time value={stream.createdAt} />
      </Table.Td>
      <Table.Td>
        <Time value={stream.startedAt} empty="Not started" />
      </Table.Td>
      <Table.Td>
        <Time value={stream.endedAt} empty="—" />
      </Table.Td>
    </Table.Tr>
  );
}

function CreateStreamForm({ project, environment }: { project: Project; environment: Environment }) {
  const create = useCreateLiveStream(project.id, environment);
  const navigate = useNavigate();
  const form = useForm({ initialValues: { title: '' } });
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit(({ title }) =>
          create.mutate(title, {
            onSuccess: (stream) =>
              void navigate({
                to: '/projects/$projectId/live-streams/$streamId',
                params: { projectId: project.id, streamId: stream.id },
                search: envSearch(environment),
              }),
          }),
        )}
      >
        <Stack gap="xs">
          <Title order={2} size="h4">
            Create a {environmentLabel(environment).toLowerCase()} live stream
          </Title>
          <Group align="flex-end">
            <TextInput
              label="Title"
              placeholder="Launch day"
              required
              maxLength={200}
              style={{ flex: 1 }}
              {...form.getInputProps('title')}
            />
            <Button type="submit" loading={create.isPending} color={environment === 'production' ? 'red' : undefined}>
              Create stream
            </Button>
          </Group>
          <ErrorAlert title="The stream was not created" error={create.error} />
        </Stack>
      </form>
    </Paper>
  );
}

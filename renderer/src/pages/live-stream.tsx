import { Button, Code, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Timeline, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { eventField } from '../api/event-fields';
import { useRefreshOn } from '../api/live-events';
import { liveStreamKeys, useEndLiveStream, useLiveStream, useRenameLiveStream } from '../api/live-streams';
import { can } from '../api/projects';
import { confirmDanger } from '../components/confirm';
import { ErrorAlert, QueryStatus } from '../components/error-alert';
import { AnchorLink } from '../components/links';
import { LiveBadge } from '../components/live-badge';
import { StreamStatus } from '../components/stream-status';
import { Time } from '../components/time';
import type { LiveStream } from '../sdk';
import { envSearch } from '../search';
import { MissingCapability, ProjectPage, useProjectRoute } from '../shell/project-page';
import { StreamParticipants, type StreamProps } from './live-stream-participants';

export function LiveStreamPage() {
  const { projectId, environment } = useProjectRoute();
  const { streamId } = useParams({ from: '/signed-in/projects/$projectId/live-streams/$streamId' });
  const stream = useLiveStream(projectId, environment, streamId);
  // Starting, ending and new hosts or viewers announce the stream's id.
  useRefreshOn(
    (event) => eventField(event, 'liveStream', 'id') === streamId,
    liveStreamKeys.one(projectId, environment, streamId),
  );
  return (
    <ProjectPage title={stream.data?.title ?? 'Live stream'} environmentScoped>
      {(project) => (
        <>
          <AnchorLink
            to="/projects/$projectId/live-streams"
            params={{ projectId }}
            search={envSearch(environment)}
            size="sm"
          >
            ← All live streams
          </AnchorLink>
          <QueryStatus query={stream} loading="Loading the live stream" failed="This live stream could not be loaded" />
          {stream.data ? <StreamDetails project={project} environment={environment} stream={stream.data} /> : null}
        </>
      )}
    </ProjectPage>
  );
}

function StreamDetails({ project, environment, stream }: StreamProps) {
  const write = can(project, 'live-streams:write');
  return (
    <>
      <Group justify="space-between">
        <Group gap="xs">
          <StreamStatus status={stream.status} />
          <Text size="xs" c="dimmed" ff="monospace">
            {stream.id}
          </Text>
        </Group>
        <Group gap="xs">
          <LiveBadge />
          {write && stream.status !== 'ENDED' ? (
            <>
              <RenameStream project={project} environment={environment} stream={stream} />
              <EndStream project={project} environment={environment} stream={stream} />
            </>
          ) : null}
        </Group>
      </Group>
      {write ? null : (
        <MissingCapability
          project={project}
          what="edit or end streams or issue credentials"
          capability="live-streams:write"
        />
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <StreamHistory stream={stream} />
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="xs">
            What it wraps
          </Title>
          <Stack gap={6}>
            <Text size="sm">
              Room (media): <Code>{stream.roomId}</Code>
            </Text>
            <Text size="sm">
              Conversation (its chat): <Code>{stream.conversationId}</Code>
            </Text>
            <Text size="xs" c="dimmed">
              Hosts publish into the room and moderate the chat; viewers watch and chat as members.
            </Text>
          </Stack>
        </Paper>
      </SimpleGrid>
      <StreamParticipants project={project} environment={environment} stream={stream} write={write} />
    </>
  );
}

/** Created → started → ended, with when; what is still to come says how it happens. */
function StreamHistory({ stream }: { stream: LiveStream }) {
  const reached = stream.endedAt ? 2 : stream.startedAt ? 1 : 0;
  return (
    <Paper withBorder p="md" component="section" aria-label="History">
      <Title order={2} size="h4" mb="sm">
        History
      </Title>
      <Timeline active={reached} bulletSize={14} lineWidth={2}>
        <Timeline.Item title="Created">
          <Text size="sm" c="dimmed">
            <Time value={stream.createdAt} />
          </Text>
        </Timeline.Item>
        <Timeline.Item title="Started (LIVE)">
          <Text size="sm" c="dimmed">
            {stream.startedAt ? (
              <Time value={stream.startedAt} />
            ) : stream.endedAt ? (
              'Ended without going live'
            ) : (
              <>
                Not yet: your server starts it with <Code>POST /v1/live-streams/{stream.id}/start</Code>
              </>
            )}
          </Text>
        </Timeline.Item>
        <Timeline.Item title="Ended">
          <Text size="sm" c="dimmed">
            {stream.endedAt ? <Time value={stream.endedAt} /> : 'Not yet'}
          </Text>
        </Timeline.Item>
      </Timeline>
    </Paper>
  );
}

function RenameStream({ project, environment, stream }: StreamProps) {
  const [open, setOpen] = useState(false);
  const rename = useRenameLiveStream(project.id, environment, stream.id);
  const form = useForm({ initialValues: { title: stream.title } });
  return (
    <>
      <Button
        variant="default"
        onClick={() => {
          form.setValues({ title: stream.title });
          rename.reset();
          setOpen(true);
        }}
      >
        Edit title
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Edit the stream’s title">
        <form
          onSubmit={form.onSubmit(({ title }) =>
            rename.mutate(title, {
              onSuccess: () => {
                setOpen(false);
                notifications.show({ color: 'green', message: 'Title saved' });
              },
            }),
          )}
        >
          <Stack>
            <TextInput label="Title" required maxLength={200} data-autofocus {...form.getInputProps('title')} />
            <ErrorAlert title="The title was not saved" error={rename.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={rename.isPending}>
                Save title
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

function EndStream({ project, environment, stream }: StreamProps) {
  const end = useEndLiveStream(project.id, environment, stream.id);
  return (
    <Button
      color="red"
      loading={end.isPending}
      onClick={() =>
        confirmDanger({
          title: `End “${stream.title}”?`,
          message:
            'Everyone in the stream’s room is disconnected, and no host or viewer credential joins it again. An ended stream cannot be restarted.',
          confirm: 'End stream',
          onConfirm: () =>
            end.mutate(undefined, {
              onSuccess: () => notifications.show({ color: 'green', message: `Ended ${stream.title}` }),
            }),
        })
      }
    >
      End stream
    </Button>
  );
}

import { Alert, Badge, Button, Checkbox, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef } from 'react';
import { can } from '../../api/projects';
import { ErrorAlert, QueryStatus } from '../../components/error-alert';
import { AnchorLink } from '../../components/links';
import type { Environment, Project, Room } from '../../sdk';
import { MissingCapability, ProjectPage } from '../../shell/project-page';
import { useRoomRoute } from './room';
import { type JoinRequest, MediaUnavailableError, type RemoteParticipant, useTestCall } from './use-test-call';

export function TestCallPage() {
  const { room } = useRoomRoute();
  return (
    <ProjectPage
      title={room.data ? `Test call in ${room.data.name}` : 'Test call'}
      environmentScoped
      description="Join the room with your camera and microphone, as your app’s participants do. Open this page in a second tab, with another identity, to see and hear yourself: if media flows here, your app’s participants can reach each other."
    >
      {(project, environment) => (
        <>
          <QueryStatus query={room} loading="Loading the room" failed="This room could not be loaded" />
          {room.data ? (
            <>
              <AnchorLink
                to="/projects/$projectId/rooms/$roomId"
                params={{ projectId: project.id, roomId: room.data.id }}
                search={(prev) => ({ env: prev.env })}
                size="sm"
              >
                ← Back to {room.data.name}
              </AnchorLink>
              {can(project, 'rooms:write') ? (
                <TestCall project={project} environment={environment} room={room.data} />
              ) : (
                <MissingCapability project={project} what="join a test call" capability="rooms:write" />
              )}
            </>
          ) : null}
        </>
      )}
    </ProjectPage>
  );
}

function TestCall({ project, environment, room }: { project: Project; environment: Environment; room: Room }) {
  const call = useTestCall(project.id, environment, room.id);
  if (!call.call) {
    return (
      <>
        {call.ended && call.ended.reason !== 'left' ? (
          <Alert color="yellow" title="The call ended">
            The server closed the connection ({call.ended.code}
            {call.ended.reason ? `: ${call.ended.reason}` : ''}).
          </Alert>
        ) : null}
        <JoinForm pending={call.join.isPending} onJoin={(request) => call.join.mutate(request)} />
        {call.join.error instanceof MediaUnavailableError ? (
          <Alert color="red" title="Could not join">
            {call.join.error.message}
          </Alert>
        ) : (
          <ErrorAlert title="Could not join" error={call.join.error} />
        )}
      </>
    );
  }
  const self = call.call.self;
  return (
    <>
      <Group>
        <Button
          variant="default"
          disabled={!call.local?.getAudioTracks().length}
          onClick={() => call.setEnabled('audio', !call.enabled.audio)}
        >
          {call.enabled.audio ? 'Mute microphone' : 'Unmute microphone'}
        </Button>
        <Button
          variant="default"
          disabled={!call.local?.getVideoTracks().length}
          onClick={() => call.setEnabled('video', !call.enabled.video)}
        >
          {call.enabled.video ? 'Turn camera off' : 'Turn camera on'}
        </Button>
        <Button color="red" onClick={call.leave}>
          Leave call
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Paper withBorder p="xs" component="section" aria-label={`You (${self.identity})`}>
          <Stack gap={4}>
            <VideoTile stream={call.local} muted label={`Your camera (${self.identity})`} />
            <Group justify="space-between">
              <Text size="sm" fw={500}>
                You ({self.identity})
              </Text>
              {call.enabled.audio ? null : <Badge color="gray">muted</Badge>}
            </Group>
          </Stack>
        </Paper>
        {call.remotes.map((remote) => (
          <RemoteTile key={remote.participant.identity} remote={remote} />
        ))}
      </SimpleGrid>
      {call.remotes.length === 0 ? (
        <Text c="dimmed">
          Nobody else is here yet. Open this page in another tab and join with another identity, or connect your app
          with a token for this room.
        </Text>
      ) : null}
    </>
  );
}

function JoinForm({ pending, onJoin }: { pending: boolean; onJoin(request: JoinRequest): void }) {
  const form = useForm<JoinRequest>({
    initialValues: { identity: `dashboard-${Math.random().toString(36).slice(2, 6)}`, camera: true, microphone: true },
    validate: { identity: (value) => (value.trim() ? null : 'Who you join as') },
  });
  return (
    <Paper withBorder p="md">
      <form onSubmit={form.onSubmit(onJoin)}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Join the room
          </Title>
          <TextInput
            label="Join as (identity)"
            description="A token is minted for it with your session; an identity already in the room is replaced."
            required
            maw={360}
            {...form.getInputProps('identity')}
          />
          <Group>
            <Checkbox label="Camera" {...form.getInputProps('camera', { type: 'checkbox' })} />
            <Checkbox label="Microphone" {...form.getInputProps('microphone', { type: 'checkbox' })} />
          </Group>
          <Group>
            <Button type="submit" loading={pending}>
              Join call
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function RemoteTile({ remote }: { remote: RemoteParticipant }) {
  const { participant, stats } = remote;
  return (
    <Paper withBorder p="xs" component="section" aria-label={participant.identity}>
      <Stack gap={4}>
        <VideoTile stream={remote.stream} label={`Video of ${participant.identity}`} />
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {participant.name ?? participant.identity}
          </Text>
          <Badge
            variant="dot"
            color={remote.state === 'connected' ? 'green' : remote.state === 'failed' ? 'red' : 'gray'}
          >
            {remote.state}
          </Badge>
        </Group>
        <Text size="sm">
          Frames decoded: <strong>{stats?.video?.framesDecoded ?? 0}</strong>
          {stats?.video?.frameWidth ? ` · ${stats.video.frameWidth}×${stats.video.frameHeight}` : ''}
          {stats?.video?.framesPerSecond ? ` · ${Math.round(stats.video.framesPerSecond)} fps` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          Audio packets received: {stats?.audio?.packetsReceived ?? 0}
        </Text>
      </Stack>
    </Paper>
  );
}

/** A live stream on screen (muted for your own preview, which would echo). */
function VideoTile({ stream, muted = false, label }: { stream: MediaStream | null; muted?: boolean; label: string }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current) video.current.srcObject = stream;
  }, [stream]);
  return (
    <video
      ref={video}
      autoPlay
      playsInline
      muted={muted}
      aria-label={label}
      style={{ width: '100%', aspectRatio: '4 / 3', background: 'var(--mantine-color-dark-7)', borderRadius: 4 }}
    />
  );
}

import { Badge, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate, useParams } from '@tanstack/react-router';
import { can } from '../../api/projects';
import { useDeleteRoom, useParticipants, useRoom } from '../../api/rooms';
import { confirmDanger } from '../../components/confirm';
import { QueryStatus } from '../../components/error-alert';
import { AnchorLink, ButtonLink } from '../../components/links';
import { LiveBadge } from '../../components/live-badge';
import { Time } from '../../components/time';
import type { Environment, Participant, Project, Room } from '../../sdk';
import { ProjectPage, useProjectRoute } from '../../shell/project-page';
import { RoomMediaPanel } from './room-media';
import { TokenPlayground } from './token-playground';

/** The room of the address: its id, and the query that loads it (shared by the room's pages). */
export function useRoomRoute() {
  const { projectId, environment } = useProjectRoute();
  const { roomId } = useParams({ strict: false }) as { roomId: string };
  return { roomId, room: useRoom(projectId, environment, roomId) };
}

export function RoomPage() {
  const { roomId, room } = useRoomRoute();
  return (
    <ProjectPage title={room.data?.name ?? 'Room'} environmentScoped>
      {(project, environment) => (
        <>
          <BackToRooms projectId={project.id} />
          <QueryStatus query={room} loading="Loading the room" failed="This room could not be loaded" />
          {room.data ? <RoomDetails key={roomId} project={project} environment={environment} room={room.data} /> : null}
        </>
      )}
    </ProjectPage>
  );
}

export function BackToRooms({ projectId }: { projectId: string }) {
  return (
    <AnchorLink to="/projects/$projectId/rooms" params={{ projectId }} search={(prev) => ({ env: prev.env })} size="sm">
      ← All rooms
    </AnchorLink>
  );
}

function RoomDetails({ project, environment, room }: { project: Project; environment: Environment; room: Room }) {
  const write = can(project, 'rooms:write');
  return (
    <>
      <Group justify="space-between" align="flex-start">
        <Text size="sm" c="dimmed">
          <Code>{room.id}</Code> · created <Time value={room.createdAt} />
          {room.maxParticipants !== null ? ` · at most ${room.maxParticipants} participants` : ''}
        </Text>
        {write ? (
          <Group gap="xs">
            <ButtonLink
              to="/projects/$projectId/rooms/$roomId/call"
              params={{ projectId: project.id, roomId: room.id }}
              search={(prev) => ({ env: prev.env })}
            >
              Join a test call
            </ButtonLink>
            <DeleteRoomButton project={project} room={room} />
          </Group>
        ) : null}
      </Group>
      <Participants project={project} environment={environment} room={room} />
      <RoomMediaPanel projectId={project.id} environment={environment} room={room} />
      {write ? <TokenPlayground project={project} environment={environment} room={room} /> : null}
    </>
  );
}

function DeleteRoomButton({ project, room }: { project: Project; room: Room }) {
  const remove = useDeleteRoom(project.id, room.environment);
  const navigate = useNavigate();
  const onConfirm = () =>
    remove.mutate(room.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Deleted room ${room.name}` });
        void navigate({
          to: '/projects/$projectId/rooms',
          params: { projectId: project.id },
          search: (prev) => ({ env: prev.env }),
        });
      },
    });
  return (
    <Button
      color="red"
      variant="light"
      loading={remove.isPending}
      onClick={() =>
        confirmDanger({
          title: `Delete room “${room.name}”?`,
          message:
            'Everyone in it is disconnected, tokens minted for it stop working and its name is free again. This cannot be undone.',
          confirm: 'Delete room',
          onConfirm,
        })
      }
    >
      Delete room
    </Button>
  );
}

function Participants({ project, environment, room }: { project: Project; environment: Environment; room: Room }) {
  const participants = useParticipants(project.id, environment, room.id);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            In the room now
          </Title>
          <LiveBadge />
        </Group>
        <QueryStatus
          query={participants}
          loading="Loading participants"
          failed="The participants could not be loaded"
        />
        {participants.data?.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nobody is in this room now. Join a test call, or connect a client to <Code>/v1/rtc</Code> with an RTC token
            {can(project, 'rooms:write') ? ' (mint one below)' : ''}.
          </Text>
        ) : null}
        {participants.data?.length ? (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Participants">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Identity</Table.Th>
                  <Table.Th>Joined</Table.Th>
                  <Table.Th>May publish</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {participants.data.map((participant) => (
                  <ParticipantRow key={participant.identity} participant={participant} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
    </Paper>
  );
}

function ParticipantRow({ participant }: { participant: Participant }) {
  const { permissions: p } = participant;
  const rights = [
    p.publish && p.publishAudio && 'audio',
    p.publish && p.publishVideo && 'video',
    p.publishData && 'data',
  ].filter((right): right is string => Boolean(right));
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {participant.identity}
        </Text>
        {participant.name ? (
          <Text size="xs" c="dimmed">
            {participant.name}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Time value={participant.joinedAt} />
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {rights.length ? (
            rights.map((right) => (
              <Badge key={right} variant="light">
                {right}
              </Badge>
            ))
          ) : (
            <Text size="sm">nothing</Text>
          )}
          {p.subscribe ? null : (
            <Badge variant="light" color="gray">
              does not receive
            </Badge>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

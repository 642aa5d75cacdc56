import { Button, Code, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { can } from '../../api/projects';
import { useCreateRoom, useDeleteRoom, useRoomsPage } from '../../api/rooms';
import { confirmDanger } from '../../components/confirm';
import { CursorPager } from '../../components/cursor-pager';
import { ErrorAlert, QueryStatus } from '../../components/error-alert';
import { AnchorLink } from '../../components/links';
import { LiveBadge } from '../../components/live-badge';
import { Time } from '../../components/time';
import type { Environment, Project, Room } from '../../sdk';
import { environmentLabel, MissingCapability, ProjectPage } from '../../shell/project-page';

const PAGE_SIZE = 20;

export function RoomsPage() {
  return (
    <ProjectPage
      title="Rooms"
      environmentScoped
      description="Where your app’s participants meet for calls. Open a room to see who is in it, mint a token or join a test call."
    >
      {(project, environment) =>
        can(project, 'project:read') ? (
          <Rooms key={environment} project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="see rooms" capability="project:read" />
        )
      }
    </ProjectPage>
  );
}

function Rooms({ project, environment }: { project: Project; environment: Environment }) {
  const search = useSearch({ from: '/signed-in/projects/$projectId/rooms' });
  const navigate = useNavigate({ from: '/projects/$projectId/rooms' });
  const cursors = search.cursors ?? [];
  const page = useRoomsPage(project.id, environment, PAGE_SIZE, cursors.at(-1));
  const write = can(project, 'rooms:write');
  const goTo = (next: string[]) =>
    void navigate({ search: (prev) => ({ ...prev, cursors: next.length ? next : undefined }) });
  const rooms = page.data?.data;
  return (
    <>
      {write ? (
        <CreateRoomForm project={project} environment={environment} onCreated={() => goTo([])} />
      ) : (
        <MissingCapability project={project} what="create or delete rooms" capability="rooms:write" />
      )}
      <Group justify="space-between">
        <Title order={2} size="h4">
          {environmentLabel(environment)} rooms
        </Title>
        <LiveBadge />
      </Group>
      <QueryStatus query={page} loading="Loading rooms" failed="The rooms could not be loaded" />
      {rooms?.length === 0 && cursors.length === 0 ? <NoRooms write={write} /> : null}
      {rooms?.length ? (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Room</Table.Th>
                <Table.Th>In the room now</Table.Th>
                <Table.Th>Created</Table.Th>
                {write ? <Table.Th>Actions</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rooms.map((room) => (
                <RoomRow key={room.id} project={project} room={room} write={write} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CursorPager nextCursor={page.data?.nextCursor} newer="Newer rooms" older="Older rooms" />
    </>
  );
}

function NoRooms({ write }: { write: boolean }) {
  return (
    <Paper withBorder p="md">
      <Text fw={500}>No rooms yet</Text>
      <Text size="sm" c="dimmed">
        {write ? 'Create one above, or create them from your server with ' : 'Your server creates them with '}
        <Code>POST /v1/rooms</Code> and an API key of this environment.
      </Text>
    </Paper>
  );
}

function RoomRow({ project, room, write }: { project: Project; room: Room; write: boolean }) {
  const remove = useDeleteRoom(project.id, room.environment);
  const confirmDelete = () =>
    confirmDanger({
      title: `Delete room “${room.name}”?`,
      message:
        room.participantCount > 0
          ? `The ${room.participantCount} participant(s) in it now are disconnected, and their tokens stop working. This cannot be undone.`
          : 'Tokens minted for it stop working and its name is free again. This cannot be undone.',
      confirm: 'Delete room',
      onConfirm: () =>
        remove.mutate(room.id, {
          onSuccess: () => notifications.show({ color: 'green', message: `Deleted room ${room.name}` }),
        }),
    });
  return (
    <Table.Tr>
      <Table.Td>
        <AnchorLink
          to="/projects/$projectId/rooms/$roomId"
          params={{ projectId: project.id, roomId: room.id }}
          search={(prev) => ({ env: prev.env })}
          fw={500}
          size="sm"
        >
          {room.name}
        </AnchorLink>
        <Text size="xs" c="dimmed" ff="monospace">
          {room.id}
        </Text>
      </Table.Td>
      <Table.Td>
        {room.participantCount}
        {room.maxParticipants !== null ? ` of at most ${room.maxParticipants}` : ''}
      </Table.Td>
      <Table.Td>
        <Time value={room.createdAt} />
      </Table.Td>
      {write ? (
        <Table.Td>
          <Button
            size="xs"
            color="red"
            variant="subtle"
            onClick={confirmDelete}
            loading={remove.isPending}
            aria-label={`Delete ${room.name}`}
          >
            Delete
          </Button>
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

function CreateRoomForm({
  project,
  environment,
  onCreated,
}: {
  project: Project;
  environment: Environment;
  onCreated(room: Room): void;
}) {
  const create = useCreateRoom(project.id, environment);
  const form = useForm<{ name: string; maxParticipants: number | string }>({
    initialValues: { name: '', maxParticipants: '' },
  });
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit(({ name, maxParticipants }) =>
          create.mutate(
            { name, ...(typeof maxParticipants === 'number' ? { maxParticipants } : {}) },
            {
              onSuccess: (room) => {
                form.reset();
                notifications.show({ color: 'green', message: `Created room ${room.name}` });
                onCreated(room);
              },
            },
          ),
        )}
      >
        <Stack gap="xs">
          <Title order={2} size="h4">
            Create a {environmentLabel(environment).toLowerCase()} room
          </Title>
          <Group align="flex-end">
            <TextInput
              label="Room name"
              placeholder="standup"
              required
              style={{ flex: 1 }}
              {...form.getInputProps('name')}
            />
            <NumberInput
              label="Max participants"
              description="Optional"
              min={1}
              max={100}
              w={160}
              {...form.getInputProps('maxParticipants')}
            />
            <Button type="submit" loading={create.isPending} color={environment === 'production' ? 'red' : undefined}>
              Create room
            </Button>
          </Group>
          <ErrorAlert title="The room was not created" error={create.error} />
        </Stack>
      </form>
    </Paper>
  );
}

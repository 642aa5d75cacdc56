import {
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { eventField } from '../api/event-fields';
import { useRefreshOn } from '../api/live-events';
import { liveStreamKeys, useAddHost, useCreateViewerToken, useParticipants, useRemoveHost } from '../api/live-streams';
import { confirmDanger } from '../components/confirm';
import { CursorPager, useCursors } from '../components/cursor-pager';
import { ErrorAlert, QueryStatus } from '../components/error-alert';
import { Time } from '../components/time';
import type { Environment, HostCredential, LiveStream, LiveStreamParticipant, Project, ViewerCredential } from '../sdk';
import { PARTICIPANT_FILTERS } from '../search';
import { CredentialOnce } from './live-stream-credential';

const PAGE_SIZE = 25;
const ROLE_LABELS: Record<LiveStreamParticipant['role'], string> = {
  HOST: 'Host',
  CO_HOST: 'Co-host',
  VIEWER: 'Viewer',
};

export interface StreamProps {
  project: Project;
  environment: Environment;
  stream: LiveStream;
}

/** Who the stream issued credentials to, who is in its room now, and issuing more. */
export function StreamParticipants({ project, environment, stream, write }: StreamProps & { write: boolean }) {
  const [issued, setIssued] = useState<HostCredential | ViewerCredential | null>(null);
  return (
    <>
      {write && stream.status !== 'ENDED' ? (
        <IssueCredentialForm project={project} environment={environment} stream={stream} onIssued={setIssued} />
      ) : null}
      <ParticipantTable project={project} environment={environment} stream={stream} write={write} />
      <Modal
        opened={issued !== null}
        onClose={() => setIssued(null)}
        title={issued ? `Credential for ${issued.identity}` : ''}
        size="lg"
      >
        {issued ? <CredentialOnce credential={issued} onDone={() => setIssued(null)} /> : null}
      </Modal>
    </>
  );
}

type IssuedRole = LiveStreamParticipant['role'];

function IssueCredentialForm({
  project,
  environment,
  stream,
  onIssued,
}: StreamProps & { onIssued(credential: HostCredential | ViewerCredential): void }) {
  const addHost = useAddHost(project.id, environment, stream.id);
  const addViewer = useCreateViewerToken(project.id, environment, stream.id);
  const form = useForm<{ identity: string; role: IssuedRole }>({ initialValues: { identity: '', role: 'VIEWER' } });
  const pending = addHost.isPending || addViewer.isPending;
  const done = (credential: HostCredential | ViewerCredential) => {
    form.setFieldValue('identity', '');
    onIssued(credential);
  };
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={form.onSubmit(({ identity, role }) => {
          addHost.reset();
          addViewer.reset();
          if (role === 'VIEWER') addViewer.mutate(identity.trim(), { onSuccess: done });
          else addHost.mutate({ identity: identity.trim(), role }, { onSuccess: done });
        })}
      >
        <Stack gap="xs">
          <Title order={2} size="h4">
            Issue a credential
          </Title>
          <Text size="sm" c="dimmed">
            An RTC token for the stream’s room and a chat token for its conversation, as your server gets them. Hosts
            and co-hosts publish; viewers only watch and chat.
          </Text>
          <Group align="flex-end">
            <TextInput
              label="Identity"
              description="Your app’s user id"
              placeholder="alice"
              required
              maxLength={128}
              style={{ flex: 1 }}
              {...form.getInputProps('identity')}
            />
            <Select
              label="Role"
              data={(['HOST', 'CO_HOST', 'VIEWER'] as const).map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
              allowDeselect={false}
              w={150}
              {...form.getInputProps('role')}
            />
            <Button type="submit" loading={pending}>
              Issue credential
            </Button>
          </Group>
          <ErrorAlert title="No credential was issued" error={addHost.error ?? addViewer.error} />
        </Stack>
      </form>
    </Paper>
  );
}

function ParticipantTable({ project, environment, stream, write }: StreamProps & { write: boolean }) {
  const search = useSearch({ from: '/signed-in/projects/$projectId/live-streams/$streamId' });
  const navigate = useNavigate({ from: '/projects/$projectId/live-streams/$streamId' });
  const cursors = useCursors();
  const participants = useParticipants(project.id, environment, stream.id, {
    kind: search.who,
    cursor: cursors.at(-1),
    limit: PAGE_SIZE,
  });
  // Joining or leaving the room, and a host removed from the stream's chat, change who is listed and how.
  useRefreshOn(
    (event) =>
      eventField(event, 'connection', 'roomId') === stream.roomId ||
      eventField(event, 'member', 'roomId') === stream.conversationId,
    liveStreamKeys.participants(project.id, environment, stream.id),
  );
  const rows = participants.data?.data;
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Hosts and viewers
        </Title>
        <SegmentedControl
          aria-label="Show"
          value={search.who ?? 'all'}
          data={[
            { value: 'all', label: 'Everyone' },
            { value: 'host', label: 'Hosts' },
            { value: 'viewer', label: 'Viewers' },
          ]}
          onChange={(value) =>
            void navigate({
              search: (prev) => ({ ...prev, who: PARTICIPANT_FILTERS.find((w) => w === value), cursors: undefined }),
            })
          }
        />
      </Group>
      <QueryStatus
        query={participants}
        loading="Loading hosts and viewers"
        failed="Hosts and viewers could not be loaded"
      />
      {rows?.length === 0 && cursors.length === 0 ? (
        <Text c="dimmed" size="sm">
          {search.who === 'host' ? 'No hosts' : search.who === 'viewer' ? 'No viewers' : 'Nobody'} yet.{' '}
          {stream.status === 'ENDED'
            ? 'The stream has ended: it issues no more credentials.'
            : 'Issue a credential above, or from your server with POST /v1/live-streams/{id}/hosts or /viewer-tokens.'}
        </Text>
      ) : null}
      {rows?.length ? (
        <Table.ScrollContainer minWidth={720}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Identity</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Credential issued</Table.Th>
                <Table.Th>In the room</Table.Th>
                <Table.Th>Removed or left</Table.Th>
                {write ? <Table.Th>Actions</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((participant) => (
                <ParticipantRow
                  key={participant.identity}
                  project={project}
                  environment={environment}
                  stream={stream}
                  participant={participant}
                  write={write}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CursorPager nextCursor={participants.data?.nextCursor} newer="Previous" older="Next" />
    </Stack>
  );
}

function ParticipantRow({
  project,
  environment,
  stream,
  participant,
  write,
}: StreamProps & { participant: LiveStreamParticipant; write: boolean }) {
  const remove = useRemoveHost(project.id, environment, stream.id);
  const removable = participant.role !== 'VIEWER' && participant.leftAt === null;
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {participant.identity}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={participant.role === 'VIEWER' ? 'gray' : 'blue'}>
          {ROLE_LABELS[participant.role]}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Time value={participant.issuedAt} />
      </Table.Td>
      <Table.Td>
        {participant.connected ? (
          <Group gap={6}>
            <Badge color="green" variant="light">
              Connected
            </Badge>
            <Text size="xs" c="dimmed">
              since <Time value={participant.connectedAt} />
            </Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Not connected
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Time value={participant.leftAt} empty="—" />
      </Table.Td>
      {write ? (
        <Table.Td>
          {removable ? (
            <Button
              size="xs"
              color="red"
              variant="subtle"
              loading={remove.isPending}
              aria-label={`Remove host ${participant.identity}`}
              onClick={() =>
                confirmDanger({
                  title: `Remove ${participant.identity} as a host?`,
                  message:
                    'They are disconnected from the stream’s room and leave its chat; their host credential no longer joins. You can issue them a new credential later.',
                  confirm: 'Remove host',
                  onConfirm: () =>
                    remove.mutate(participant.identity, {
                      onSuccess: () =>
                        notifications.show({ color: 'green', message: `Removed ${participant.identity} as a host` }),
                    }),
                })
              }
            >
              Remove
            </Button>
          ) : null}
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

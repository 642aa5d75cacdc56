import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { Fragment, useState } from 'react';
import { chatKeys, usePresence } from '../api/chat';
import { eventField } from '../api/event-fields';
import { useRefreshOn } from '../api/live-events';
import { QueryStatus } from '../components/error-alert';
import { Time } from '../components/time';
import type { Environment, InspectedConversation, Project } from '../sdk';

const COLUMNS = 6;

/** A conversation's metadata and counts; its presence opens below it. */
export function ConversationRow({
  project,
  environment,
  conversation,
}: {
  project: Project;
  environment: Environment;
  conversation: InspectedConversation;
}) {
  const [open, setOpen] = useState(false);
  const presenceId = `presence-${conversation.id}`;
  return (
    <Fragment>
      <Table.Tr>
        <Table.Td>
          <Text size="sm" fw={500}>
            {conversation.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {conversation.id}
          </Text>
        </Table.Td>
        <Table.Td>{conversation.memberCount}</Table.Td>
        <Table.Td>{conversation.messageCount}</Table.Td>
        <Table.Td>
          <Time value={conversation.lastMessageAt} empty="No messages yet" />
        </Table.Td>
        <Table.Td>
          <Time value={conversation.createdAt} />
        </Table.Td>
        <Table.Td>
          <Button
            size="xs"
            variant="subtle"
            aria-expanded={open}
            aria-controls={presenceId}
            aria-label={`${open ? 'Hide' : 'Show'} presence in ${conversation.name}`}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : 'Show'}
          </Button>
        </Table.Td>
      </Table.Tr>
      {open ? (
        <Table.Tr id={presenceId}>
          <Table.Td colSpan={COLUMNS}>
            <Presence project={project} environment={environment} conversationId={conversation.id} />
          </Table.Td>
        </Table.Tr>
      ) : null}
    </Fragment>
  );
}

function Presence({
  project,
  environment,
  conversationId,
}: {
  project: Project;
  environment: Environment;
  conversationId: string;
}) {
  const presence = usePresence(project.id, environment, conversationId);
  // Members come and go, and go online or offline, as realtime clients connect.
  useRefreshOn(
    (e) => eventField(e, 'connection', 'kind') === 'realtime' || eventField(e, 'member', 'roomId') === conversationId,
    chatKeys.presence(project.id, environment, conversationId),
  );
  return (
    <>
      <QueryStatus query={presence} loading="Loading presence" failed="Presence could not be loaded" />
      {presence.data?.length === 0 ? (
        <Text size="sm" c="dimmed">
          No members.
        </Text>
      ) : null}
      {presence.data?.length ? (
        <Group gap="xs" role="list" aria-label="Members and whether they are online">
          {presence.data.map((member) => (
            <Badge
              key={member.userId}
              role="listitem"
              variant={member.online ? 'light' : 'outline'}
              color={member.online ? 'green' : 'gray'}
              tt="none"
            >
              {member.userId}: {member.online ? `online (${member.connections})` : 'offline'}
            </Badge>
          ))}
        </Group>
      ) : null}
    </>
  );
}

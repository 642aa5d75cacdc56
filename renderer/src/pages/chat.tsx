import { Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { chatKeys, useChatConnections, useChatOverview, useConversationsPage } from '../api/chat';
import { eventField } from '../api/event-fields';
import { useRefreshOn } from '../api/live-events';
import { can } from '../api/projects';
import { CursorPager, useCursors } from '../components/cursor-pager';
import { QueryStatus } from '../components/error-alert';
import { Figure } from '../components/figure';
import { LiveBadge } from '../components/live-badge';
import { Time } from '../components/time';
import type { ChatOverview, Environment, LiveEvent, Project } from '../sdk';
import { environmentLabel, MissingCapability, ProjectPage } from '../shell/project-page';
import { ConversationRow } from './chat-conversation-row';

export function ChatPage() {
  return (
    <ProjectPage
      title="Chat"
      environmentScoped
      description="What your app’s chat is doing: counts, conversations, who is connected and who is present. Message content is never shown here."
    >
      {(project, environment) =>
        can(project, 'chat:read') ? (
          <ChatInspection key={environment} project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="inspect chat" capability="chat:read" />
        )
      }
    </ProjectPage>
  );
}

const isRealtimeConnection = (event: LiveEvent) =>
  (event.type === 'connection.opened' || event.type === 'connection.closed') &&
  eventField(event, 'connection', 'kind') === 'realtime';
const CONVERSATION_CHANGES = new Set(['conversation.created', 'member.added', 'member.removed']);
const MESSAGE_CHANGES = new Set(['message.created', 'message.deleted']);

function ChatInspection({ project, environment }: { project: Project; environment: Environment }) {
  // Each part refreshes on what changes it, from the live event stream (metadata only: no message text).
  useRefreshOn(
    (e) => MESSAGE_CHANGES.has(e.type) || CONVERSATION_CHANGES.has(e.type) || isRealtimeConnection(e),
    chatKeys.overview(project.id, environment),
  );
  useRefreshOn(
    (e) => MESSAGE_CHANGES.has(e.type) || CONVERSATION_CHANGES.has(e.type),
    chatKeys.conversations(project.id, environment),
  );
  useRefreshOn(isRealtimeConnection, chatKeys.connections(project.id, environment));
  return (
    <Stack gap="lg">
      <Overview project={project} environment={environment} />
      <Conversations project={project} environment={environment} />
      <Connections project={project} environment={environment} />
    </Stack>
  );
}

const FIGURES: { key: keyof Omit<ChatOverview, 'environment'>; label: string }[] = [
  { key: 'conversations', label: 'Conversations' },
  { key: 'members', label: 'Members' },
  { key: 'messages', label: 'Messages' },
  { key: 'connections', label: 'Connections now' },
  { key: 'onlineUsers', label: 'Users online' },
];

function Overview({ project, environment }: { project: Project; environment: Environment }) {
  const overview = useChatOverview(project.id, environment);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {environmentLabel(environment)} overview
        </Title>
        <LiveBadge />
      </Group>
      <QueryStatus
        query={overview}
        loading="Loading the chat overview"
        failed="The chat overview could not be loaded"
      />
      {overview.data ? (
        <SimpleGrid cols={{ base: 2, sm: 5 }} role="list" aria-label="Chat overview">
          {FIGURES.map(({ key, label }) => (
            <Figure key={key} label={label} role="listitem" ariaLabel={`${label}: ${overview.data[key]}`}>
              {overview.data[key].toLocaleString()}
            </Figure>
          ))}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}

function Conversations({ project, environment }: { project: Project; environment: Environment }) {
  const cursors = useCursors();
  const page = useConversationsPage(project.id, environment, cursors.at(-1));
  const conversations = page.data?.data;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Conversations
      </Title>
      <QueryStatus query={page} loading="Loading conversations" failed="The conversations could not be loaded" />
      {conversations?.length === 0 && cursors.length === 0 ? (
        <Paper withBorder p="md">
          <Text fw={500}>No conversations yet</Text>
          <Text size="sm" c="dimmed">
            Your server creates them with <Code>POST /v1/chat/conversations</Code> and an API key of this environment
            (the Connect page has the snippets); their members then chat with chat tokens from{' '}
            <Code>POST /v1/chat/tokens</Code>.
          </Text>
        </Paper>
      ) : null}
      {conversations?.length ? (
        <Table.ScrollContainer minWidth={760}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Members</Table.Th>
                <Table.Th>Messages</Table.Th>
                <Table.Th>Last message</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Presence</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {conversations.map((conversation) => (
                <ConversationRow
                  key={conversation.id}
                  project={project}
                  environment={environment}
                  conversation={conversation}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <CursorPager nextCursor={page.data?.nextCursor} newer="Newer conversations" older="Older conversations" />
    </Stack>
  );
}

function Connections({ project, environment }: { project: Project; environment: Environment }) {
  const connections = useChatConnections(project.id, environment);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Realtime connections
      </Title>
      <QueryStatus query={connections} loading="Loading connections" failed="The connections could not be loaded" />
      {connections.data?.length === 0 ? (
        <Text size="sm" c="dimmed">
          No chat client is connected. Clients connect to <Code>/v1/realtime</Code> with a chat token and appear here
          while connected.
        </Text>
      ) : null}
      {connections.data?.length ? (
        <Table.ScrollContainer minWidth={500}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th>Connected since</Table.Th>
                <Table.Th>Connection</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {connections.data.map((connection) => (
                <Table.Tr key={connection.id}>
                  <Table.Td>{connection.userId}</Table.Td>
                  <Table.Td>
                    <Time value={connection.connectedAt} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" ff="monospace">
                      {connection.id}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
    </Stack>
  );
}

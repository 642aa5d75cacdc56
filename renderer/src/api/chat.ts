import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Environment } from '../sdk';
import { useClient } from '../session/session-context';

/** Everything the chat page reads of one project environment sits under one key: one event refreshes what it names. */
export const chatKeys = {
  all: (projectId: string, environment: Environment) => ['chat', projectId, environment] as const,
  overview: (projectId: string, environment: Environment) => [...chatKeys.all(projectId, environment), 'overview'],
  conversations: (projectId: string, environment: Environment) => [
    ...chatKeys.all(projectId, environment),
    'conversations',
  ],
  connections: (projectId: string, environment: Environment) => [
    ...chatKeys.all(projectId, environment),
    'connections',
  ],
  presence: (projectId: string, environment: Environment, conversationId: string) => [
    ...chatKeys.all(projectId, environment),
    'presence',
    conversationId,
  ],
};

export const CONVERSATIONS_PAGE_SIZE = 25;

export function useChatOverview(projectId: string, environment: Environment) {
  const client = useClient();
  return useQuery({
    queryKey: chatKeys.overview(projectId, environment),
    queryFn: () => client.chat.overview(projectId, { environment }),
  });
}

export function useConversationsPage(projectId: string, environment: Environment, cursor: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: [...chatKeys.conversations(projectId, environment), cursor ?? null],
    queryFn: () => client.chat.conversations(projectId, { environment, cursor, limit: CONVERSATIONS_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
}

export function useChatConnections(projectId: string, environment: Environment) {
  const client = useClient();
  return useQuery({
    queryKey: chatKeys.connections(projectId, environment),
    queryFn: async () => (await client.chat.connections(projectId, { environment })).data,
  });
}

export function usePresence(projectId: string, environment: Environment, conversationId: string) {
  const client = useClient();
  return useQuery({
    queryKey: chatKeys.presence(projectId, environment, conversationId),
    queryFn: async () => (await client.chat.presence(projectId, conversationId, { environment })).data,
  });
}

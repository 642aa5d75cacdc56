import { keepPreviousData, type MutationMeta, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Environment, UpdateWebhookInput, WebhookDeliveriesQuery, WebhookEventType } from '../sdk';
import { useClient } from '../session/session-context';
import { useRefreshOn } from './live-events';
import { SHOWN_INLINE } from './query-client';

/** Everything webhook of one environment sits under one key: a delivery attempt refreshes it all at once. */
export const webhookKeys = {
  environment: (projectId: string, environment: Environment) => ['webhooks', projectId, environment] as const,
  one: (projectId: string, environment: Environment, webhookId: string) =>
    [...webhookKeys.environment(projectId, environment), webhookId] as const,
};

/** The catalogue never changes while the server runs. */
export function useWebhookCatalogue() {
  const client = useClient();
  return useQuery({
    queryKey: ['webhook-events'],
    queryFn: async () => (await client.webhooks.eventTypes()).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * Refreshes the webhook pages on screen when an attempt is made (failure counts, the log, a delivery's attempts),
 * from the live event stream instead of polling.
 */
export function useRefreshOnDeliveryAttempts(projectId: string, environment: Environment) {
  useRefreshOn(['delivery.attempted'], webhookKeys.environment(projectId, environment));
}

export function useWebhooks(projectId: string, environment: Environment, enabled = true) {
  const client = useClient();
  return useQuery({
    queryKey: [...webhookKeys.environment(projectId, environment), 'list'],
    queryFn: async () => (await client.webhooks.list(projectId, { environment })).data,
    enabled,
  });
}

export function useWebhook(projectId: string, environment: Environment, webhookId: string) {
  const client = useClient();
  return useQuery({
    queryKey: [...webhookKeys.one(projectId, environment, webhookId), 'endpoint'],
    queryFn: () => client.webhooks.get(projectId, webhookId, { environment }),
  });
}

export function useDeliveries(
  projectId: string,
  environment: Environment,
  webhookId: string,
  query: Omit<WebhookDeliveriesQuery, 'environment'>,
) {
  const client = useClient();
  return useQuery({
    queryKey: [...webhookKeys.one(projectId, environment, webhookId), 'deliveries', query],
    queryFn: () => client.webhooks.deliveries(projectId, webhookId, { ...query, environment }),
    placeholderData: keepPreviousData,
  });
}

export function useDelivery(projectId: string, environment: Environment, webhookId: string, deliveryId: string) {
  const client = useClient();
  return useQuery({
    queryKey: [...webhookKeys.one(projectId, environment, webhookId), 'delivery', deliveryId],
    queryFn: () => client.webhooks.delivery(projectId, webhookId, deliveryId, { environment }),
  });
}

/** The body is the same on every attempt: read once, outside the keys that attempts refresh. */
export function useDeliveryBody(
  projectId: string,
  environment: Environment,
  webhookId: string,
  deliveryId: string,
  enabled: boolean,
) {
  const client = useClient();
  return useQuery({
    queryKey: ['webhook-delivery-body', projectId, environment, webhookId, deliveryId],
    queryFn: () => client.webhooks.deliveryBody(projectId, webhookId, deliveryId, { environment }),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
}

/** A mutation of the environment's webhooks that refreshes them when it succeeds. */
function useWebhookMutation<Input, Output>(
  projectId: string,
  environment: Environment,
  mutationFn: (input: Input) => Promise<Output>,
  options: { meta?: MutationMeta } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.environment(projectId, environment) }),
  });
}

export function useRegisterWebhook(projectId: string, environment: Environment) {
  const client = useClient();
  return useWebhookMutation(
    projectId,
    environment,
    (input: { url: string; events: WebhookEventType[] }) =>
      client.webhooks.register(projectId, { ...input, environment }),
    SHOWN_INLINE,
  );
}

export function useUpdateWebhook(projectId: string, environment: Environment, webhookId: string) {
  const client = useClient();
  return useWebhookMutation(
    projectId,
    environment,
    (input: UpdateWebhookInput) => client.webhooks.update(projectId, webhookId, input, { environment }),
    SHOWN_INLINE,
  );
}

export function useDeleteWebhook(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => client.webhooks.delete(projectId, webhookId, { environment }),
    // Its queries go, rather than refetch into a 404.
    onSuccess: (_, webhookId) => {
      queryClient.removeQueries({ queryKey: webhookKeys.one(projectId, environment, webhookId) });
      return queryClient.invalidateQueries({ queryKey: webhookKeys.environment(projectId, environment) });
    },
  });
}

export function useResendDelivery(projectId: string, environment: Environment, webhookId: string) {
  const client = useClient();
  return useWebhookMutation(projectId, environment, (deliveryId: string) =>
    client.webhooks.resend(projectId, webhookId, deliveryId, { environment }),
  );
}

export function useSendTestEvent(projectId: string, environment: Environment, webhookId: string) {
  const client = useClient();
  return useWebhookMutation(projectId, environment, (type: WebhookEventType) =>
    client.webhooks.test(projectId, webhookId, type, { environment }),
  );
}

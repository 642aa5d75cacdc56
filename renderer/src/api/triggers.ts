import { useMutation } from '@tanstack/react-query';
import type { Environment, WebhookEventType } from '../sdk';
import { useClient } from '../session/session-context';

/** Makes an event happen for real in the environment (the objects it needs are created), like `stripe trigger`. */
export function useTriggerEvent(projectId: string, environment: Environment) {
  const client = useClient();
  return useMutation({
    mutationFn: (event: WebhookEventType) => client.environments.trigger(projectId, { environment, event }),
  });
}

import { useMutation } from '@tanstack/react-query';
import type { Environment, WebhookEventType } from '../sdk';
import { useClient } from '../session/session-context';
import { SHOWN_INLINE } from './query-client';

/** Makes an event happen for real in the environment (the objects it needs are created), like `stripe trigger`. */
export function useTriggerEvent(projectId: string, environment: Environment) {
  const client = useClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: (event: WebhookEventType) => client.environments.trigger(projectId, { environment, event }),
  });
}

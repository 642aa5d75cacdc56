import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNow } from '../components/use-now';
import type { Environment } from '../sdk';
import { useClient } from '../session/session-context';
import { refreshEnvironment } from './environments';
import { useRefreshOn } from './live-events';
import { SHOWN_INLINE } from './query-client';

const clockKey = (projectId: string, environment: Environment) => ['test-clock', projectId, environment] as const;

/** An environment's test clock: its `now` and how far it runs ahead of real time. Moved elsewhere, read again. */
export function useTestClock(projectId: string, environment: Environment, enabled = true) {
  const client = useClient();
  useRefreshOn(['environment.clock_changed'], clockKey(projectId, environment));
  return useQuery({
    queryKey: clockKey(projectId, environment),
    queryFn: () => client.environments.clock(projectId, { environment }),
    enabled,
  });
}

/**
 * The environment's time as it runs: the `now` the server answered, plus the time passed in the browser since
 * (a test clock runs at real speed, ahead by its offset). Ticks every second; null until the clock is read.
 */
export function useRunningClockTime(clock: { data?: { now: string }; dataUpdatedAt: number }): string | null {
  const now = useNow();
  if (!clock.data) return null;
  return new Date(Date.parse(clock.data.now) + Math.max(0, now - clock.dataUpdatedAt)).toISOString();
}

/**
 * Moves an environment's clock forward, or back to real time (`seconds: null`). What the environment shows depends
 * on its time (deliveries retried, tokens expired, metrics windows), so all of it is read again.
 */
export function useMoveTestClock(projectId: string, environment: Environment) {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    ...SHOWN_INLINE,
    mutationFn: (seconds: number | null) =>
      seconds === null
        ? client.environments.resetClock(projectId, { environment })
        : client.environments.advanceClock(projectId, { environment, seconds }),
    onSuccess: (clock) => {
      queryClient.setQueryData(clockKey(projectId, environment), clock);
      void refreshEnvironment(queryClient, projectId, environment);
    },
  });
}

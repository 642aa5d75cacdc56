import { Alert, Group, Text } from '@mantine/core';
import { useFaults } from '../api/faults';
import { useTestClock } from '../api/test-clock';
import { describeOffset } from '../components/durations';
import { faultSummary } from '../components/fault-kinds';
import { AnchorLink } from '../components/links';
import { Time } from '../components/time';
import type { Environment } from '../sdk';
import { environmentLabel } from './project-page';

/**
 * Loud while faults are injected into the environment on screen: failures and delays seen on the page may be the
 * ones asked for. Says which, until when (in real time, as they expire), and where to switch them off.
 */
export function FaultsBanner({
  projectId,
  environment,
  enabled,
}: {
  projectId: string;
  environment: Environment;
  /** False for a role that may not read the project's testing tools. */
  enabled: boolean;
}) {
  const faults = useFaults(projectId, environment, enabled);
  // Faults expire in real time, not in the environment's (test clock) time: said so when the two differ.
  const clock = useTestClock(projectId, environment, enabled && Boolean(faults.data?.length));
  if (!faults.data?.length) return null;
  const lastEnd =
    faults.data
      .map((fault) => fault.expiresAt)
      .sort()
      .at(-1) ?? null;
  const ahead = clock.data?.offsetMs ?? 0;
  return (
    <Alert color="orange.9" variant="filled" radius="md" py="xs" role="status" aria-label="Faults injected">
      <Group gap="xs">
        <Text fw={800} size="sm" c="black" tt="uppercase" style={{ letterSpacing: '0.08em' }}>
          Faults on
        </Text>
        <Text size="sm" fw={500} c="black">
          {environmentLabel(environment)} misbehaves on purpose: {faults.data.map(faultSummary).join('; ')}. Until{' '}
          <Time value={lastEnd} seconds /> real time
          {ahead > 0 ? ` (the test clock runs ${describeOffset(ahead)} ahead; moving it does not end them)` : ''}.
        </Text>
        <AnchorLink
          to="/projects/$projectId/settings"
          params={{ projectId }}
          search={{ env: environment }}
          c="black"
          fw={700}
          size="sm"
          underline="always"
        >
          Manage faults
        </AnchorLink>
      </Group>
    </Alert>
  );
}

import { Button, Group, NumberInput, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { can } from '../../api/projects';
import { useMoveTestClock, useRunningClockTime, useTestClock } from '../../api/test-clock';
import { describeOffset } from '../../components/durations';
import { ErrorAlert, QueryStatus } from '../../components/error-alert';
import { Time } from '../../components/time';
import type { Environment, Project } from '../../sdk';
import { environmentLabel, MissingCapability } from '../../shell/project-page';

const UNITS = [
  { value: '60', label: 'minutes' },
  { value: '3600', label: 'hours' },
  { value: '86400', label: 'days' },
];
const PRESETS = [
  { label: '+1 minute', seconds: 60 },
  { label: '+1 hour', seconds: 3_600 },
  { label: '+1 day', seconds: 86_400 },
];

/**
 * An environment's test clock: where it stands, and controls to move it forward (what is due in that time happens at
 * once: webhook retries, token expiry, typing) or back to real time. Development or staging: production's clock
 * never moves.
 */
export function TestClock({ project, environment }: { project: Project; environment: Environment }) {
  const label = environmentLabel(environment);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Test clock
        </Title>
        <ClockControls project={project} environment={environment} label={label} />
      </Stack>
    </Paper>
  );
}

function ClockControls({ project, environment, label }: { project: Project; environment: Environment; label: string }) {
  const clock = useTestClock(project.id, environment);
  const move = useMoveTestClock(project.id, environment);
  const time = useRunningClockTime(clock);
  const [amount, setAmount] = useState<number | string>(2);
  const [unit, setUnit] = useState<string | null>('3600');
  const allowed = can(project, 'project:write');
  const advance = (seconds: number) =>
    move.mutate(seconds, {
      onSuccess: (moved) =>
        notifications.show({
          color: 'green',
          message: `${label}’s clock is now ${describeOffset(moved.offsetMs)} ahead of real time`,
        }),
    });
  const custom = Number(amount) * Number(unit);
  return (
    <>
      <Text size="sm">
        Moves time forward in {label.toLowerCase()} only: webhook retries that fall due go out at once (in order, with
        the same event id), tokens expire, typing indicators lapse and metrics count in its time.
      </Text>
      <QueryStatus query={clock} loading="Reading the clock" failed="The clock could not be read" />
      {clock.data ? (
        <Group gap="xl" aria-label={`${label} clock`}>
          <div>
            <Text size="xs" c="dimmed">
              {label} time
            </Text>
            <Text fw={600}>
              <Time value={time} seconds />
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Against real time
            </Text>
            <Text fw={600}>
              {clock.data.offsetMs > 0 ? `${describeOffset(clock.data.offsetMs)} ahead` : 'Real time'}
            </Text>
          </div>
        </Group>
      ) : null}
      {allowed ? (
        <>
          <Group gap="xs">
            {PRESETS.map((preset) => (
              <Button
                key={preset.seconds}
                variant="default"
                size="xs"
                loading={move.isPending && move.variables === preset.seconds}
                onClick={() => advance(preset.seconds)}
              >
                {preset.label}
              </Button>
            ))}
          </Group>
          <Group align="flex-end" gap="xs">
            <NumberInput
              label="Advance by"
              min={1}
              max={400}
              allowDecimal={false}
              w={110}
              value={amount}
              onChange={setAmount}
            />
            <Select aria-label="Unit" data={UNITS} value={unit} onChange={setUnit} allowDeselect={false} w={120} />
            <Button disabled={!(custom > 0)} onClick={() => advance(custom)}>
              Advance
            </Button>
            {clock.data && clock.data.offsetMs > 0 ? (
              <Button variant="subtle" onClick={() => move.mutate(null)}>
                Back to real time
              </Button>
            ) : null}
          </Group>
        </>
      ) : (
        <MissingCapability project={project} what="move the test clock" capability="project:write" />
      )}
      <ErrorAlert title="The clock did not move" error={move.error} />
    </>
  );
}

import { Button, Group, NumberInput, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useFaultChanges, useFaults } from '../../api/faults';
import { can } from '../../api/projects';
import { ErrorAlert, QueryStatus } from '../../components/error-alert';
import { FAULT_DESCRIPTIONS } from '../../components/fault-kinds';
import { Time } from '../../components/time';
import type { Environment, FaultKind, Project } from '../../sdk';
import { environmentLabel, MissingCapability } from '../../shell/project-page';

const EXPIRIES = [
  { value: '300', label: '5 minutes' },
  { value: '600', label: '10 minutes' },
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
];

/**
 * Faults injected into an environment's traffic, to see how an app copes: the ones on now (each until it expires),
 * a form to add one, and dropping the environment's sockets. Development or staging: never production.
 */
export function Faults({ project, environment }: { project: Project; environment: Environment }) {
  const label = environmentLabel(environment);
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Fault injection
        </Title>
        <Text size="sm">
          Makes {label.toLowerCase()} misbehave on purpose, to test how your app copes: webhooks that fail, come twice,
          late or out of order; API calls answered 503 or slowly; sockets dropped. Each fault ends by itself when it
          expires. Dashboard and CLI requests are never affected.
        </Text>
        <ActiveFaults project={project} environment={environment} />
        {can(project, 'project:write') ? (
          <>
            <AddFault project={project} environment={environment} />
            <DropSockets project={project} environment={environment} />
          </>
        ) : (
          <MissingCapability project={project} what="inject faults" capability="project:write" />
        )}
      </Stack>
    </Paper>
  );
}

function ActiveFaults({ project, environment }: { project: Project; environment: Environment }) {
  const faults = useFaults(project.id, environment);
  const { remove, clear } = useFaultChanges(project.id, environment);
  const allowed = can(project, 'project:write');
  if (!faults.data)
    return <QueryStatus query={faults} loading="Loading faults" failed="The faults could not be loaded" />;
  if (faults.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No faults are on in {environmentLabel(environment).toLowerCase()}.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Table aria-label="Faults on now">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Fault</Table.Th>
            <Table.Th>Share</Table.Th>
            <Table.Th>Delay</Table.Th>
            <Table.Th>Ends</Table.Th>
            {allowed ? <Table.Th /> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {faults.data.map((fault) => (
            <Table.Tr key={fault.id}>
              <Table.Td>
                <Text size="sm">{FAULT_DESCRIPTIONS[fault.kind].label}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {fault.kind}
                </Text>
              </Table.Td>
              <Table.Td>{fault.percent}%</Table.Td>
              <Table.Td>{fault.delayMs ? `${fault.delayMs.toLocaleString('en-US')} ms` : '—'}</Table.Td>
              <Table.Td>
                <Time value={fault.expiresAt} seconds />
              </Table.Td>
              {allowed ? (
                <Table.Td>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${FAULT_DESCRIPTIONS[fault.kind].label}`}
                    loading={remove.isPending && remove.variables === fault.id}
                    onClick={() => remove.mutate(fault.id)}
                  >
                    Remove
                  </Button>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {allowed ? (
        <Button variant="outline" color="red" size="xs" w="fit-content" onClick={() => clear.mutate()}>
          Remove all faults
        </Button>
      ) : null}
    </Stack>
  );
}

function AddFault({ project, environment }: { project: Project; environment: Environment }) {
  const { add } = useFaultChanges(project.id, environment);
  const [kind, setKind] = useState<FaultKind>('webhook.failure');
  const [percent, setPercent] = useState<number | string>(100);
  const [delayMs, setDelayMs] = useState<number | string>(2000);
  const [expires, setExpires] = useState<string | null>('600');
  const needsDelay = FAULT_DESCRIPTIONS[kind].delay === 'required';
  return (
    <form
      aria-label="Add a fault"
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate(
          {
            kind,
            percent: Number(percent),
            delayMs: needsDelay ? Number(delayMs) : undefined,
            expiresInSeconds: Number(expires),
          },
          {
            onSuccess: () => notifications.show({ color: 'orange', message: `${FAULT_DESCRIPTIONS[kind].label}: on` }),
          },
        );
      }}
    >
      <Stack gap={6}>
        <Group align="flex-end" gap="xs">
          <Select
            label="Fault"
            w={240}
            allowDeselect={false}
            value={kind}
            onChange={(value) => setKind(value as FaultKind)}
            data={Object.entries(FAULT_DESCRIPTIONS).map(([value, { label }]) => ({ value, label }))}
          />
          <NumberInput
            label="Share (%)"
            min={1}
            max={100}
            allowDecimal={false}
            w={100}
            value={percent}
            onChange={setPercent}
          />
          {needsDelay ? (
            <NumberInput
              label="Delay (ms)"
              min={1}
              max={60_000}
              step={500}
              allowDecimal={false}
              w={120}
              value={delayMs}
              onChange={setDelayMs}
            />
          ) : null}
          <Select label="For" w={130} allowDeselect={false} data={EXPIRIES} value={expires} onChange={setExpires} />
          <Button type="submit" color="red" loading={add.isPending}>
            Inject fault
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {FAULT_DESCRIPTIONS[kind].description}
        </Text>
        <ErrorAlert title="The fault was not added" error={add.error} />
      </Stack>
    </form>
  );
}

/** Drops a share of the environment's realtime and signaling sockets now: clients reconnect and catch up. */
function DropSockets({ project, environment }: { project: Project; environment: Environment }) {
  const { dropSockets } = useFaultChanges(project.id, environment);
  const [percent, setPercent] = useState<number | string>(100);
  return (
    <Stack gap={6}>
      <Group align="flex-end" gap="xs">
        <NumberInput
          label="Sockets to drop (%)"
          min={1}
          max={100}
          allowDecimal={false}
          w={150}
          value={percent}
          onChange={setPercent}
        />
        <Button
          variant="outline"
          color="red"
          loading={dropSockets.isPending}
          onClick={() =>
            dropSockets.mutate(
              { percent: Number(percent) },
              {
                onSuccess: ({ closed }) =>
                  notifications.show({
                    color: 'orange',
                    message: `Dropped ${closed.toLocaleString('en-US')} socket${closed === 1 ? '' : 's'}`,
                  }),
              },
            )
          }
        >
          Drop sockets now
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Closes that share of the environment’s realtime and signaling connections at once; the SDK’s clients reconnect
        and catch up on what they missed.
      </Text>
      <ErrorAlert title="The sockets were not dropped" error={dropSockets.error} />
    </Stack>
  );
}

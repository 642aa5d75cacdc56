import { Alert, Button, Code, Group, List, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { can } from '../../api/projects';
import { useTriggerEvent } from '../../api/triggers';
import { useWebhookCatalogue } from '../../api/webhooks';
import { ErrorAlert } from '../../components/error-alert';
import type { Environment, Project, TriggeredEvent, WebhookEventType } from '../../sdk';
import { environmentLabel, MissingCapability } from '../../shell/project-page';

/**
 * Makes one event happen for real, like `stripe trigger`: the objects it needs are created, and the event reaches
 * the environment's endpoints and sockets as the real one would. Development or staging: never production.
 */
export function TriggerEvent({ project, environment }: { project: Project; environment: Environment }) {
  const catalogue = useWebhookCatalogue();
  const trigger = useTriggerEvent(project.id, environment);
  const [event, setEvent] = useState<WebhookEventType | null>('message.created');
  const label = environmentLabel(environment).toLowerCase();
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          Trigger an event
        </Title>
        {can(project, 'rooms:write') ? (
          <>
            <Text size="sm">
              Creates what the event needs in {label} (a conversation, a message, a room…) so that the real event
              reaches your endpoints and connected clients. The CLI does the same:{' '}
              <Code>switchboard trigger {event ?? 'message.created'}</Code>.
            </Text>
            <Group align="flex-end" gap="xs">
              <Select
                label="Event"
                searchable
                w={280}
                allowDeselect={false}
                value={event}
                onChange={(value) => setEvent(value as WebhookEventType | null)}
                data={(catalogue.data ?? []).map((type) => type.type)}
              />
              <Button disabled={!event} loading={trigger.isPending} onClick={() => event && trigger.mutate(event)}>
                Trigger
              </Button>
            </Group>
            <ErrorAlert title="The event was not triggered" error={trigger.error} />
            {trigger.data ? <Triggered triggered={trigger.data} /> : null}
          </>
        ) : (
          <MissingCapability project={project} what="trigger events" capability="rooms:write" />
        )}
      </Stack>
    </Paper>
  );
}

/** What the trigger made, by kind, and every event it emitted on the way (the objects' own first). */
function Triggered({ triggered }: { triggered: TriggeredEvent }) {
  return (
    <Alert color="green" title={`Triggered ${triggered.event}`}>
      <List size="sm" aria-label="Created for the event">
        {Object.entries(triggered.objects).map(([name, value]) => (
          <List.Item key={name}>
            {name}: <Code>{idOf(value)}</Code>
          </List.Item>
        ))}
      </List>
      <Text size="sm" mt="xs">
        Events emitted: {triggered.events.join(', ')}
      </Text>
    </Alert>
  );
}

const idOf = (value: unknown): string =>
  typeof value === 'object' && value !== null && 'id' in value ? String(value.id) : String(value);

import { Group, Select, SimpleGrid, Text } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useRefreshOn } from '../api/live-events';
import { observabilityKeys, useUsage } from '../api/observability';
import { can } from '../api/projects';
import { QueryStatus } from '../components/error-alert';
import { bytes, Figure } from '../components/figure';
import { Time } from '../components/time';
import type { Environment, Project } from '../sdk';
import { MissingCapability, ProjectPage } from '../shell/project-page';

/** Usage is counted per minute and kept for 62 days: the current and the previous month are complete. */
const MONTHS_KEPT = 2;
const USAGE_EVENTS = ['message.created', 'delivery.attempted', 'connection.opened', 'connection.closed'] as const;

/** `YYYY-MM` of this month (UTC) and the months before it, newest first. */
function recentMonths(now = new Date()): string[] {
  return Array.from({ length: MONTHS_KEPT }, (_, back) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1)).toISOString().slice(0, 7),
  );
}

const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function UsagePage() {
  return (
    <ProjectPage
      title="Usage"
      environmentScoped
      description="What this environment used in a calendar month (UTC): the figures a bill is made of."
    >
      {(project, environment) =>
        can(project, 'usage:read') ? (
          <MonthlyUsage key={environment} project={project} environment={environment} />
        ) : (
          <MissingCapability project={project} what="see usage" capability="usage:read" />
        )
      }
    </ProjectPage>
  );
}

function MonthlyUsage({ project, environment }: { project: Project; environment: Environment }) {
  const search = useSearch({ from: '/signed-in/projects/$projectId/usage' });
  const navigate = useNavigate({ from: '/projects/$projectId/usage' });
  const months = recentMonths();
  const month = search.month ?? months[0];
  const usage = useUsage(project.id, environment, month);
  useRefreshOn(USAGE_EVENTS, observabilityKeys.usage(project.id, environment));
  const u = usage.data;
  return (
    <>
      <Group align="flex-end">
        <Select
          label="Month"
          w={220}
          allowDeselect={false}
          data={[...new Set([...months, month])].map((m) => ({ value: m, label: monthLabel(m) }))}
          value={month}
          onChange={(value) => void navigate({ search: (prev) => ({ ...prev, month: value ?? undefined }) })}
        />
        <Text size="sm" c="dimmed" pb={6}>
          Kept for the current and the previous month.
        </Text>
      </Group>
      <QueryStatus query={usage} loading="Loading usage" failed="Usage could not be loaded" />
      {u ? (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <Figure label="Messages">{u.messages.toLocaleString()}</Figure>
            <Figure label="Connection minutes">{u.connectionMinutes.toLocaleString()}</Figure>
            <Figure label="Webhook attempts">{u.webhookDeliveries.toLocaleString()}</Figure>
            <Figure label="Storage">{bytes(u.storageBytes)}</Figure>
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            From <Time value={u.period.from} /> to <Time value={u.period.to} />. Messages and webhook attempts count
            when they happen (deleting a message later does not take it back; each retry of a delivery is one more
            attempt); connection minutes add up every realtime and signaling connection, rounded up; storage is the
            attachments stored now.
          </Text>
          {u.messages + u.connectionMinutes + u.webhookDeliveries + u.storageBytes === 0 ? (
            <Text size="sm">
              Nothing used yet this month. Usage grows as your app sends messages, connects clients and receives
              webhooks with this environment’s keys.
            </Text>
          ) : null}
        </>
      ) : null}
    </>
  );
}

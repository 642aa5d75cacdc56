import { Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useRefreshOn } from '../../api/live-events';
import { observabilityKeys, useMetrics } from '../../api/observability';
import { QueryStatus } from '../../components/error-alert';
import { AnchorLink } from '../../components/links';
import { MetricChart } from '../../components/metric-chart';
import { METRIC_WINDOWS, type MetricWindow } from '../../search';
import { useProjectRoute } from '../../shell/project-page';
import { DiagnosticsPanel } from './diagnostics';

const WINDOW_LABELS: Record<MetricWindow, string> = {
  '15m': 'the last 15 minutes',
  '1h': 'the last hour',
  '6h': 'the last 6 hours',
  '24h': 'the last 24 hours',
};

/** The four series charted (the API also has webhook deliveries and telemetry, which have pages of their own). */
const CHARTS = [
  { title: 'Requests', series: 'requests', unit: ['request', 'requests'], color: 'blue' },
  { title: 'Errors', series: 'errors', unit: ['error', 'errors'], color: 'red' },
  { title: 'Messages', series: 'messages', unit: ['message', 'messages'], color: 'teal' },
  { title: 'Connections opened', series: 'connections', unit: ['connection', 'connections'], color: 'grape' },
] as const satisfies readonly {
  title: string;
  series: 'requests' | 'errors' | 'messages' | 'connections';
  unit: readonly [string, string];
  color: string;
}[];

const isQuiet = (points: { value: number }[]) => points.every((p) => p.value === 0);

/** Any live event means traffic (a message, a connection, a failed request…): the current minute's counts move. */
const anyEvent = () => true;

export function MetricsPage() {
  const { projectId, environment } = useProjectRoute();
  const search = useSearch({ from: '/signed-in/projects/$projectId/observability/' });
  const navigate = useNavigate({ from: '/projects/$projectId/observability/' });
  const window = search.window ?? '1h';
  const metrics = useMetrics(projectId, environment, window);
  useRefreshOn(anyEvent, observabilityKeys.metrics(projectId, environment));
  const series = metrics.data?.series;
  const windowLabel = WINDOW_LABELS[window];
  return (
    <Stack gap="lg">
      <DiagnosticsPanel projectId={projectId} environment={environment} />
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={2} size="h4">
              Traffic per minute
            </Title>
            <Text size="sm" c="dimmed">
              Runtime requests (made with an API key, chat or RTC token), their errors, messages sent and connections
              opened, over {windowLabel}.
            </Text>
          </div>
          <SegmentedControl
            aria-label="Window"
            value={window}
            data={METRIC_WINDOWS.map((w) => ({ value: w, label: w }))}
            onChange={(value) => void navigate({ search: (prev) => ({ ...prev, window: value as MetricWindow }) })}
          />
        </Group>
        <QueryStatus query={metrics} loading="Loading metrics" failed="The metrics could not be loaded" />
        {series && [series.requests, series.messages, series.connections].every(isQuiet) ? (
          <Text size="sm" c="dimmed">
            No traffic in {windowLabel}. Make a request with an API key of this environment, or connect a client:{' '}
            <AnchorLink to="/projects/$projectId/connect" params={{ projectId }} search={{ env: environment }}>
              Connect
            </AnchorLink>{' '}
            has the key and code to paste.
          </Text>
        ) : null}
        {series ? (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {CHARTS.map((chart) => (
              <MetricChart key={chart.title} {...chart} points={series[chart.series]} windowLabel={windowLabel} />
            ))}
          </SimpleGrid>
        ) : null}
      </Stack>
    </Stack>
  );
}

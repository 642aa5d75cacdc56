import { Group, Tabs } from '@mantine/core';
import { Outlet, useMatchRoute, useNavigate } from '@tanstack/react-router';
import { can } from '../../api/projects';
import { LiveBadge } from '../../components/live-badge';
import { MissingCapability, ProjectPage, useProjectRoute } from '../../shell/project-page';

const TABS = [
  { value: 'metrics', label: 'Metrics', to: '/projects/$projectId/observability' },
  { value: 'errors', label: 'Errors', to: '/projects/$projectId/observability/errors' },
  { value: 'connections', label: 'Connections', to: '/projects/$projectId/observability/connections' },
] as const;

/** Metrics, errors and connections of the environment, as tabs over one frame (the tab is in the address). */
export function ObservabilityLayout() {
  return (
    <ProjectPage
      title="Observability"
      environmentScoped
      description="What your app does against this environment: traffic per minute, failed requests, connections."
    >
      {(project) =>
        can(project, 'project:read') ? (
          <ObservabilityTabs />
        ) : (
          <MissingCapability project={project} what="see traffic, errors or connections" capability="project:read" />
        )
      }
    </ProjectPage>
  );
}

function ObservabilityTabs() {
  const { projectId, environment } = useProjectRoute();
  const matchRoute = useMatchRoute();
  const navigate = useNavigate();
  // The longest tab address that matches (metrics' is a prefix of the others).
  const active =
    [...TABS].reverse().find((tab) => matchRoute({ to: tab.to, params: { projectId }, fuzzy: true }))?.value ??
    'metrics';
  return (
    <Tabs
      value={active}
      onChange={(value) => {
        const tab = TABS.find((t) => t.value === value);
        if (tab) void navigate({ to: tab.to, params: { projectId }, search: { env: environment } });
      }}
    >
      <Group justify="space-between" align="flex-end" wrap="nowrap">
        <Tabs.List style={{ flex: 1 }}>
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <LiveBadge />
      </Group>
      {TABS.map((tab) => (
        <Tabs.Panel key={tab.value} value={tab.value} pt="md">
          {tab.value === active ? <Outlet /> : null}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

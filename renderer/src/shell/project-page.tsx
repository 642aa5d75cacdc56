import { Alert, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { can, useProject } from '../api/projects';
import { QueryStatus } from '../components/error-alert';
import { usePageTitle } from '../components/page-title';
import { ENVIRONMENTS, type Environment, type Project } from '../sdk';
import { FaultsBanner } from './faults-banner';

/** The project id of the page and its environment (`?env=`, development when absent). */
export function useProjectRoute(): { projectId: string; environment: Environment } {
  const { projectId } = useParams({ from: '/signed-in/projects/$projectId' });
  const { env } = useSearch({ from: '/signed-in/projects/$projectId' });
  return { projectId, environment: env ?? 'development' };
}

const LABELS: Record<Environment, string> = {
  development: 'Development',
  staging: 'Staging',
  production: 'Production',
};

export const environmentLabel = (environment: Environment) => LABELS[environment];

/** Development, staging, production: a choice kept in the URL, so a copied link opens the same environment. */
export function EnvironmentSwitcher({ environment }: { environment: Environment }) {
  const navigate = useNavigate();
  return (
    <SegmentedControl
      aria-label="Environment"
      value={environment}
      color={environment === 'production' ? 'red' : environment === 'staging' ? 'yellow' : 'blue'}
      // Dark text on staging's yellow: white on it reads at 3:1, under the 4.5:1 text needs.
      autoContrast
      data={ENVIRONMENTS.map((env) => ({ value: env, label: LABELS[env] }))}
      onChange={(value) =>
        void navigate({
          to: '.',
          search: (prev: Record<string, unknown>) => ({ ...prev, env: value, cursors: undefined }),
        })
      }
    />
  );
}

/** Production is marked on every page that acts in it, as Stripe marks test mode: nobody mistakes one for the other. */
function ProductionBanner() {
  return (
    <Alert color="red" variant="filled" radius="md" py="xs" role="status" aria-label="Production environment">
      <Group gap="xs">
        <Text fw={800} size="sm" tt="uppercase" style={{ letterSpacing: '0.08em' }}>
          Production
        </Text>
        <Text size="sm" fw={500}>
          You are working on live data: keys and changes here affect your production app.
        </Text>
      </Group>
    </Alert>
  );
}

interface ProjectPageProps {
  title: string;
  /** Pages that act in one environment show the switcher (and the production banner). */
  environmentScoped?: boolean;
  description?: ReactNode;
  children(project: Project, environment: Environment): ReactNode;
}

/** The frame of a project's page: the project loaded (or why not), its title, the environment when it matters. */
export function ProjectPage({ title, environmentScoped = false, description, children }: ProjectPageProps) {
  const { projectId, environment } = useProjectRoute();
  const project = useProject(projectId);
  const production = environmentScoped && environment === 'production';
  usePageTitle(title, project.data?.name, environmentScoped ? environmentLabel(environment) : undefined);
  return (
    <Stack
      gap="md"
      maw={1100}
      style={production ? { borderTop: '4px solid var(--mantine-color-red-filled)', paddingTop: 8 } : undefined}
    >
      {production ? <ProductionBanner /> : null}
      {environmentScoped && !production ? (
        <FaultsBanner projectId={projectId} environment={environment} enabled={can(project.data, 'project:read')} />
      ) : null}
      <Group justify="space-between" align="flex-end">
        <div>
          <Text size="sm" c="dimmed">
            {project.data?.name ?? ' '}
          </Text>
          <Title order={1} size="h2">
            {title}
          </Title>
        </div>
        {environmentScoped ? <EnvironmentSwitcher environment={environment} /> : null}
      </Group>
      {description ? <Text c="dimmed">{description}</Text> : null}
      <QueryStatus query={project} loading="Loading the project" failed="This project could not be loaded" />
      {project.data ? children(project.data, environment) : null}
    </Stack>
  );
}

/** Why a control is missing: the role, and the capability it lacks. */
export function MissingCapability({
  project,
  what,
  capability,
}: {
  project: Project;
  what: string;
  capability: string;
}) {
  return (
    <Text size="sm" c="dimmed">
      Your role ({project.role}) cannot {what}: that takes the <code>{capability}</code> capability. Ask an owner or
      admin of the project.
    </Text>
  );
}
